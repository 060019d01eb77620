// Per-request GraphQL context: the shared domain deps, the caller's key, and the caller's
// project access resolved once (lazily) per request.
import type { MonitoringDeps, ProjectAccess } from '../monitoring/context.ts';
import { authenticate } from '../monitoring/projects/service.ts';

export interface GraphQLContext {
  deps: MonitoringDeps;
  /** One `now` for the whole request, so every status in a response agrees. */
  now: Date;
  /** The caller, authenticated for reading; throws "missing api key"/"wrong api key". */
  access(): Promise<ProjectAccess>;
}

export function createContext(deps: MonitoringDeps, apiKey: string | null): GraphQLContext {
  let access: Promise<ProjectAccess> | undefined;
  return {
    deps,
    now: deps.clock.now(),
    access: () => (access ??= authenticate(deps.db, apiKey, 'read')),
  };
}
