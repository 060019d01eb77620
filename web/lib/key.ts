// The API key lives in sessionStorage: gone when the tab closes, never in a URL or a cookie
// (so no other tab, log or request the key was not meant for ever carries it).
const NAME = 'gateway.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(NAME);
export const storeKey = (key: string) => sessionStorage.setItem(NAME, key);
export const forgetKey = () => sessionStorage.removeItem(NAME);
