// POST a GraphQL operation to a test world's /graphql over real HTTP.
import type { World } from './world.ts';

export interface GqlResult<T = any> {
  data?: T;
  errors?: Array<{ message: string; extensions?: any }>;
}

export async function gql<T = any>(w: World, query: string, variables: Record<string, unknown> = {}, key: string | null = w.alice.api_key): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers['X-Api-Key'] = key;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as GqlResult<T>;
}

/** The same over a campus session token (`Authorization: Token <t>`, none when null); with the HTTP status. */
export async function campusGql<T = any>(w: World, query: string, variables: Record<string, unknown>, token: string | null): Promise<GqlResult<T> & { status: number }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Token ${token}`;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, ...((await res.json()) as GqlResult<T>) };
}
