// The services the transports (REST compatibility, GraphQL, the web pages, email pings) are
// given: the two domains' entry points, built once by the composition (composition.ts).
import type { MonitoringServices } from './monitoring/services.ts';
import type { CampusDeps } from './campus/lookup.ts';
import type { IdentityDeps } from './identity/context.ts';

export interface GatewayServices {
  monitoring: MonitoringServices;
  campus: CampusDeps;
  /** Accounts, sessions, memberships: who is calling and what they may do. */
  identity: IdentityDeps;
}
