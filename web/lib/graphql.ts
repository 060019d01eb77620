// Queries and mutations over HTTP POST /graphql, same-origin. An API key travels in the
// X-Api-Key header only, never in a URL (where it would land in logs and history); a signed-in
// person's session is the HttpOnly cookie, which the browser adds to these same-origin requests.
export interface GraphQLErrorShape {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; [name: string]: unknown };
}

/**
 * A GraphQL document with the result and variables types GraphQL Code Generator gives its
 * operation (`npm run codegen`). Screens write each document as `doc<R, V>(…)` around a template
 * literal led by the GraphQL magic comment, which is how codegen finds it; the types are erased
 * from the bundle, so the page never needs the generated code at run time.
 */
export type Document<R, V> = string & { readonly __result?: R; readonly __variables?: V };
export const doc = <R, V>(source: string) => source as Document<R, V>;

export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Result<T> {
  data: T | null;
  errors: GraphQLErrorShape[];
}

export async function request<T>(query: string, variables: object = {}, key: string | null = null): Promise<Result<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json' };
  if (key) headers['X-Api-Key'] = key;
  const res = await fetch('/graphql', { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ query, variables }) });
  const body = (await res.json().catch(() => null)) as { data?: T | null; errors?: GraphQLErrorShape[] } | null;
  if (!body) throw new RequestError(`HTTP ${res.status}`, undefined);
  return { data: body.data ?? null, errors: body.errors ?? [] };
}

/** The data, or the first error as a RequestError. A typed document gives its result type. */
export async function query<R, V extends object = Record<string, unknown>>(document: Document<R, V> | string, variables?: V, key: string | null = null): Promise<R> {
  const { data, errors } = await request<R>(document, variables ?? {}, key);
  const first = errors[0];
  if (first || !data) throw new RequestError(first?.message ?? 'no data', first?.extensions?.code, first?.extensions ?? {});
  return data;
}

/** A message for the person: the server's for its own (expected) errors, else what went wrong. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
