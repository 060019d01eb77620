// The per-request GraphQL context built from what a transport received (an HTTP request's
// headers, a socket's connection_init payload or an operation's extensions): the shared domain
// deps, the caller's key, and the caller's project access resolved once (lazily) per request.
import type { ProjectAccess } from '../../monitoring/context.ts';
import type { GatewayServices } from '../../services.ts';
import { authenticate } from '../../monitoring/projects/service.ts';
import { viewerFromToken, type Viewer } from '../../campus/auth.ts';
import type { LoginThrottle } from '../../campus/login-throttle.ts';
import type { GraphQLContext } from '../schema/context.ts';

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

export function createContext(services: GatewayServices, apiKey: string | null, authorization: string | null = null, connection: ConnectionInfo = {}): GraphQLContext {
  let access: Promise<ProjectAccess> | undefined;
  let known: ProjectAccess | undefined;
  let viewer: Promise<Viewer> | undefined;
  const token = authorization ? tokenFrom(authorization) : null;
  const deps = services.monitoring;
  return {
    deps,
    now: deps.clock.now(),
    access: () => (access ??= authenticate(deps.db, apiKey, 'read').then((a) => (known = a))),
    knownAccess: () => known,
    campus: services.campus,
    viewer: () => (viewer ??= viewerFromToken(deps.db, token)),
    clientAddress: connection.clientAddress ?? 'unknown',
    loginThrottle: connection.loginThrottle ?? null,
  };
}
