// The list's address as last shown (with its filters), for the "All checks" links of the other
// checks screens: back from a check's page is the list as it was left.
let last = '#/checks';
export const rememberList = (hash: string) => void (last = hash.startsWith('#/checks') ? hash : '#/checks');
export const listAddress = () => last;
