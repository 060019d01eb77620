// Per-request GraphQL context: the shared domain deps, the caller's key, and the caller's
// project access resolved once (lazily) per request.
import type { MonitoringDeps, ProjectAccess } from '../monitoring/context.ts';
import { authenticate } from '../monitoring/projects/service.ts';
import { viewerFromToken, type Viewer } from '../campus/auth.ts';
import type { CampusDeps } from '../campus/service.ts';

export interface GraphQLContext {
  deps: MonitoringDeps;
  /** One `now` for the whole request, so every status in a response agrees. */
  now: Date;
  /** The caller, authenticated for reading; throws "missing api key"/"wrong api key". */
  access(): Promise<ProjectAccess>;
  /** Campus records: the deps of the records service. */
  campus: CampusDeps;
  /** The campus caller from `Authorization: Token <token>`; anonymous without one. */
  viewer(): Promise<Viewer>;
}

export function createContext(deps: MonitoringDeps, apiKey: string | null, authorization: string | null = null): GraphQLContext {
  let access: Promise<ProjectAccess> | undefined;
  let viewer: Promise<Viewer> | undefined;
  const token = authorization ? (/^Token\s+(\S+)$/i.exec(authorization)?.[1] ?? authorization) : null;
  return {
    deps,
    now: deps.clock.now(),
    access: () => (access ??= authenticate(deps.db, apiKey, 'read')),
    campus: { db: deps.db, clock: deps.clock },
    viewer: () => (viewer ??= viewerFromToken(deps.db, token)),
  };
}
