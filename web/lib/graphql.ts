// Queries and mutations over HTTP POST /graphql. The key travels in the X-Api-Key header only,
// never in a URL (where it would land in logs and history).
export interface GraphQLErrorShape {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string };
}

export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export interface Result<T> {
  data: T | null;
  errors: GraphQLErrorShape[];
}

export async function request<T>(query: string, variables: Record<string, unknown> = {}, key: string | null = null): Promise<Result<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json' };
  if (key) headers['X-Api-Key'] = key;
  const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = (await res.json().catch(() => null)) as { data?: T | null; errors?: GraphQLErrorShape[] } | null;
  if (!body) throw new RequestError(`HTTP ${res.status}`, undefined);
  return { data: body.data ?? null, errors: body.errors ?? [] };
}

/** The data, or the first error as a RequestError. */
export async function query<T>(document: string, variables: Record<string, unknown> = {}, key: string | null = null): Promise<T> {
  const { data, errors } = await request<T>(document, variables, key);
  if (errors.length || !data) throw new RequestError(errors[0]?.message ?? 'no data', errors[0]?.extensions?.code);
  return data;
}
