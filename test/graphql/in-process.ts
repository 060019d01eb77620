// GraphQL in-process: yoga.fetch on a server built from (a copy of) an app's deps, no port.
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../../src/monitoring/context.ts';
import { createYogaServer } from '../../src/graphql/yoga.ts';
import type { GqlResult } from '../helpers/gql.ts';

export type Query = <T = any>(query: string, variables?: Record<string, unknown>, key?: string | null) => Promise<GqlResult<T>>;

export function inProcess(deps: MonitoringDeps, log: Logger, defaultKey: string | null): Query {
  const yoga = createYogaServer(deps, log);
  return async (query, variables = {}, key = defaultKey) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (key !== null) headers['X-Api-Key'] = key;
    const res = await yoga.fetch('http://localhost/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as GqlResult<any>;
  };
}
