// What every resolver receives: the shared domain deps, one `now` per request, and the caller
// (a monitoring project's key, a campus viewer) resolved lazily. The server builds it per
// request (server/context.ts); the schema only reads it.
import type { ProjectAccess } from '../../monitoring/context.ts';
import type { MonitoringServices } from '../../monitoring/services.ts';
import type { Viewer } from '../../campus/auth.ts';
import type { CampusDeps } from '../../campus/service.ts';
import type { IdentityDeps } from '../../identity/context.ts';
import type { SignedIn } from '../../identity/caller.ts';
import type { LoginThrottle } from '../../campus/login-throttle.ts';

export interface GraphQLContext {
  deps: MonitoringServices;
  identity: IdentityDeps;
  /** One `now` for the whole request, so every status in a response agrees. */
  now: Date;
  /**
   * The caller's access to a project, authenticated for reading. An API key reaches its own
   * project (another id is "project not found"; none is the key's); a signed-in person reaches
   * each project they are a member of, with their role's rights, and must say which. Throws
   * "missing api key"/"wrong api key" without a key or session.
   */
  access(projectId?: string | null): Promise<ProjectAccess>;
  /**
   * The access to `projectId` (the last resolved when omitted) once resolved, else undefined:
   * lets a hot field (Check.pings) answer without a promise when the request has authenticated.
   */
  knownAccess(projectId?: string): ProjectAccess | undefined;
  /** The projects the caller may read: the key's one, or the signed-in person's. */
  readableProjects(): Promise<string[]>;
  /** The person signed in through the session cookie (null without one, or with an API key). */
  signedIn(): Promise<SignedIn | null>;
  /** An HTTP request from a browser (cookies can be set); null over WebSocket and in-process. */
  browser: BrowserChannel | null;
  /** After signing in: the rest of this request acts as the new session (its cookie goes out with the response). */
  adoptSession(token: string, person: SignedIn): void;
  /** Campus records: the deps of the records service. */
  campus: CampusDeps;
  /** The campus caller from `Authorization: Token <token>`; anonymous without one. */
  viewer(): Promise<Viewer>;
  /** The client's address (login attempts are counted per address). */
  clientAddress: string;
  /** Login attempts per account and per address, shared with POST /login; null: not limited. */
  loginThrottle: LoginThrottle | null;
}

/** What a browser's HTTP request offers the sign-in fields: its cookie and where it comes from. */
export interface BrowserChannel {
  /** The session cookie's value as the request carried it (to end it on sign-in and sign-out). */
  sessionToken: string | null;
  userAgent: string | null;
  /** Adds a Set-Cookie header to the response. */
  setCookie(cookie: string): void;
}
