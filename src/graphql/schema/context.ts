// What every resolver receives: the shared domain deps, one `now` per request, and the caller
// (a monitoring project's key, a campus viewer) resolved lazily. The server builds it per
// request (server/context.ts); the schema only reads it.
import type { ProjectAccess } from '../../monitoring/context.ts';
import type { MonitoringServices } from '../../monitoring/services.ts';
import type { Viewer } from '../../campus/auth.ts';
import type { CampusDeps } from '../../campus/service.ts';
import type { LoginThrottle } from '../../campus/login-throttle.ts';

export interface GraphQLContext {
  deps: MonitoringServices;
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
