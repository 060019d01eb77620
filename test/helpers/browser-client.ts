// A browser as the server sees one, for tests over real HTTP: it keeps the cookies the server
// sets (Set-Cookie) and sends them back, with the Origin and Sec-Fetch-Site a page of the site
// itself sends (override them to play another site).
import type { World } from './world.ts';
import type { GqlResult } from './gql.ts';

export interface BrowserClient {
  cookies: Map<string, string>;
  /** POST /graphql as a page of the site; `headers` override or add (e.g. a foreign Origin). */
  gql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string | undefined>): Promise<GqlResult<T> & { status: number; headers: Headers }>;
  /** The Cookie header this browser sends. */
  cookieHeader(): string;
}

export function browserClient(w: Pick<World, 'url'>): BrowserClient {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    cookies,
    cookieHeader,
    async gql(query, variables = {}, headers = {}) {
      const res = await fetch(`${w.url}/graphql`, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries({ 'Content-Type': 'application/json', Origin: w.url, 'Sec-Fetch-Site': 'same-origin', 'User-Agent': 'test-browser', ...(cookies.size ? { Cookie: cookieHeader() } : {}), ...headers }).filter(
            (e): e is [string, string] => e[1] !== undefined,
          ),
        ),
        body: JSON.stringify({ query, variables }),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(';');
        const eq = pair!.indexOf('=');
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
        if (expired || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
      const body = (await res.json()) as GqlResult;
      return { status: res.status, headers: res.headers, ...body } as never;
    },
  };
}
