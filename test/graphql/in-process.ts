// GraphQL in-process: yoga.fetch on a server built from (a copy of) an app's services, no port.
import type { Logger } from 'pino';
import type { App } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import type { GatewayServices } from '../../src/services.ts';
import { createYogaServer } from '../../src/graphql/server/yoga.ts';
import type { GqlResult } from '../helpers/gql.ts';

export type Query = <T = any>(query: string, variables?: Record<string, unknown>, key?: string | null) => Promise<GqlResult<T>>;

/** The app's services with every database access going through `db` (a query-counting proxy). */
export function servicesOn(app: App, db: unknown): GatewayServices {
  return { monitoring: { ...app.services.monitoring, db: db as Db }, campus: { ...app.services.campus, db: db as Db }, identity: { ...app.services.identity, db: db as Db } };
}

export function inProcess(services: GatewayServices, log: Logger, defaultKey: string | null): Query {
  const yoga = createYogaServer(services, log);
  return async (query, variables = {}, key = defaultKey) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (key !== null) headers['X-Api-Key'] = key;
    const res = await yoga.fetch('http://localhost/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as GqlResult<any>;
  };
}

/**
 * The app's database as a proxy that records every model call the resolvers make
 * (`person.findMany`…), for tests that a page of N records costs the same calls as a page of 2.
 */
export function callRecordingDb(app: App): { db: unknown; calls: string[] } {
  const calls: string[] = [];
  const db = new Proxy(app.services.campus.db as unknown as Record<string | symbol, unknown>, {
    get(target, model) {
      const value = Reflect.get(target, model, target);
      if (typeof model !== 'string' || model.startsWith('$') || typeof value !== 'object' || value === null) return typeof value === 'function' ? value.bind(target) : value;
      return new Proxy(value as Record<string | symbol, unknown>, {
        get(delegate, method) {
          const fn = Reflect.get(delegate, method, delegate);
          return typeof fn === 'function' ? (...args: unknown[]) => (calls.push(`${model}.${String(method)}`), fn.apply(delegate, args)) : fn;
        },
      });
    },
  });
  return { db, calls };
}
