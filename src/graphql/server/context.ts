// The per-request GraphQL context built from what a transport received (an HTTP request's
// headers, a socket's connection_init payload or an operation's extensions): the shared domain
// deps, the caller's key, and the caller's project access resolved once (lazily) per request.
import type { ProjectAccess } from '../../monitoring/context.ts';
import type { GatewayServices } from '../../services.ts';
import { authenticate } from '../../monitoring/projects/service.ts';
import { anonymous, viewerFromToken, type Viewer } from '../../campus/auth.ts';
import { campusViewerOf, projectAccessOf, readableProjectIds, signedInBy, type SignedIn } from '../../identity/caller.ts';
import { notFound, unauthenticated, validationError } from '../../shared/errors.ts';
import type { BrowserChannel } from '../schema/context.ts';
import type { LoginThrottle } from '../../campus/login-throttle.ts';
import type { GraphQLContext } from '../schema/context.ts';

/** What the transport knows about the connection, beyond its headers. */
export interface ConnectionInfo {
  clientAddress?: string;
  loginThrottle?: LoginThrottle | null;
  /** The session cookie's value, when the request may use it (the CSRF rule: session-cookie.ts). */
  sessionToken?: string | null;
  /** An HTTP request from a browser: it can receive cookies (signIn, signOut). */
  browser?: BrowserChannel | null;
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
  let keyAccess: Promise<ProjectAccess> | undefined;
  const known = new Map<string, ProjectAccess>();
  let lastKnown: ProjectAccess | undefined;
  const byProject = new Map<string, Promise<ProjectAccess>>();
  let viewer: Promise<Viewer> | undefined;
  let person: Promise<SignedIn | null> | undefined;
  const token = authorization ? tokenFrom(authorization) : null;
  const deps = services.monitoring;
  const identity = services.identity;
  // An API key, when sent, decides (programs); else the browser's session, when it has one.
  let sessionToken = apiKey ? null : (connection.sessionToken ?? null);
  const signedIn = () => (person ??= signedInBy(identity, sessionToken));
  const remember = (a: ProjectAccess) => {
    known.set(a.projectId, a);
    lastKnown = a;
    return a;
  };
  const access = async (projectId?: string | null): Promise<ProjectAccess> => {
    if (!sessionToken) {
      const a = await (keyAccess ??= authenticate(deps.db, apiKey, 'read').then(remember));
      // Another project is simply not there for this key (no hint that it exists).
      if (projectId && projectId !== a.projectId) throw notFound('project not found');
      return a;
    }
    const me = await signedIn();
    if (!me) throw unauthenticated('not signed in (or the session has ended): sign in, or send an X-Api-Key');
    if (!projectId) throw validationError('which project? give its id (viewer.projects lists yours)');
    let found = byProject.get(projectId);
    if (!found) byProject.set(projectId, (found = projectAccessOf(identity, me, projectId).then(remember)));
    return found;
  };
  return {
    deps,
    identity,
    now: deps.clock.now(),
    access,
    knownAccess: (projectId) => (projectId === undefined ? lastKnown : known.get(projectId)),
    readableProjects: async () => {
      if (!sessionToken) return [(await access()).projectId];
      const me = await signedIn();
      return me ? readableProjectIds(identity, me) : [];
    },
    signedIn,
    campus: services.campus,
    // `Authorization: Token` (Slate's scripts) decides; else the signed-in person, as the same account.
    viewer: () => (viewer ??= token ? viewerFromToken(deps.db, token) : signedIn().then((me) => (me ? campusViewerOf(me) : anonymous))),
    clientAddress: connection.clientAddress ?? 'unknown',
    loginThrottle: connection.loginThrottle ?? null,
    browser: connection.browser ?? null,
    adoptSession: (token, me) => {
      // The rest of a signIn's response (viewer.projects…) is the new session's.
      sessionToken = token;
      person = Promise.resolve(me);
      byProject.clear();
      viewer = undefined;
    },
  };
}
