// POST a GraphQL operation to a test world's /graphql over real HTTP.
import type { World } from './world.ts';

export interface GqlResult<T = any> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

export async function gql<T = any>(w: World, query: string, variables: Record<string, unknown> = {}, key: string | null = w.alice.api_key): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers['X-Api-Key'] = key;
  const res = await fetch(`${w.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as GqlResult<T>;
}
