// Per-request GraphQL context: the shared domain deps, the caller's key, and the caller's
// project access resolved once (lazily) per request.
import type { MonitoringDeps, ProjectAccess } from '../monitoring/context.ts';
import { authenticate } from '../monitoring/projects/service.ts';
import { viewerFromToken, type Viewer } from '../campus/auth.ts';
import type { CampusDeps } from '../campus/service.ts';
import type { LoginThrottle } from '../campus/login-throttle.ts';

export interface GraphQLContext {
  deps: MonitoringDeps;
  /** One `now` for the whole request, so every status in a response agrees. */
  now: Date;
  /** The caller, authenticated for reading; throws "missing api key"/"wrong api key". */
  access(): Promise<ProjectAccess>;
  /**
   * The caller once `access()` has resolved, else undefined: lets a hot field (Check.pings)
   * answer without a promise when the request has already authenticated.
   */
  knownAccess(): ProjectAccess | undefined;
  /** Campus records: the deps of the records service. */
  campus: CampusDeps;
  /** The campus caller from `Authorization: Token <token>`; anonymous without one. */
  viewer(): Promise<Viewer>;
  /** The client's address (login attempts are counted per address). */
  clientAddress: string;
  /** Login attempts per account and per address, shared with POST /login; null: not limited. */
  loginThrottle: LoginThrottle | null;
}

/** What the transport knows about the connection, beyond its headers. */
export interface ConnectionInfo {
  clientAddress?: string;
  loginThrottle?: LoginThrottle | null;
}

function ownHeader(params: Record<string, unknown> | undefined, name: string): string | null {
  for (const [key, value] of Object.entries(params ?? {})) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return null;
}

/**
 * A header from graphql-ws's connection_init payload (same names, any case), at its top level
 * or in its `headers` object; one level only, so no payload can make the look-up recurse.
 */
export function headerFrom(params: Record<string, unknown> | undefined, name: string): string | null {
  const nested = params?.headers;
  return ownHeader(params, name) ?? (typeof nested === 'object' && nested !== null ? ownHeader(nested as Record<string, unknown>, name) : null);
}

/**
 * A header of a graphql-ws operation: the operation's own, from its `extensions.headers` (GraphiQL
 * sends its Headers tab there, with every operation on a socket it opened without params),
 * else the connection's. An empty value is no header, as an empty HTTP header is.
 */
export function operationHeader(connectionParams: Record<string, unknown> | undefined, extensions: unknown, name: string): string | null {
  const headers = typeof extensions === 'object' && extensions !== null ? (extensions as { headers?: unknown }).headers : undefined;
  const own = typeof headers === 'object' && headers !== null ? headerFrom(headers as Record<string, unknown>, name) : null;
  return own || headerFrom(connectionParams, name);
}

export const tokenFrom = (authorization: string) => /^Token\s+(\S+)$/i.exec(authorization)?.[1] ?? authorization;

export function createContext(deps: MonitoringDeps, apiKey: string | null, authorization: string | null = null, connection: ConnectionInfo = {}): GraphQLContext {
  let access: Promise<ProjectAccess> | undefined;
  let known: ProjectAccess | undefined;
  let viewer: Promise<Viewer> | undefined;
  const token = authorization ? tokenFrom(authorization) : null;
  return {
    deps,
    now: deps.clock.now(),
    access: () => (access ??= authenticate(deps.db, apiKey, 'read').then((a) => (known = a))),
    knownAccess: () => known,
    campus: { db: deps.db, clock: deps.clock, events: deps.events, search: deps.recordSearch },
    viewer: () => (viewer ??= viewerFromToken(deps.db, token)),
    clientAddress: connection.clientAddress ?? 'unknown',
    loginThrottle: connection.loginThrottle ?? null,
  };
}
