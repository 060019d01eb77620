// GraphQL over WebSocket (graphql-transport-ws, graphql-ws on ws) on the server's own port at
// /graphql. Operations run through yoga's envelop, so authentication, error masking and
// limits apply exactly as over HTTP. Credentials travel in `connection_init`'s payload as the
// same headers HTTP uses; a bad one closes the socket with 4403 Forbidden.
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { MonitoringDeps } from '../monitoring/context.ts';
import { authenticate } from '../monitoring/projects/service.ts';
import { viewerFromToken } from '../campus/auth.ts';
import { headerFrom, tokenFrom } from './context.ts';
import { createSharedSubscriptions } from './shared-subscriptions.ts';

/**
 * A subscription's context lives as long as the subscription: its `now` must be each event's
 * time, not the subscribe time, or a status computed for an event hours later would be stale.
 */
function liveClock<C extends object>(context: C, deps: MonitoringDeps): C {
  return Object.defineProperty(context, 'now', { get: () => deps.clock.now(), configurable: true });
}

function shareKeyOf(params: Record<string, unknown> | undefined, payload: { query: string; operationName?: string | null; variables?: unknown }) {
  return JSON.stringify([
    headerFrom(params, 'x-api-key'),
    headerFrom(params, 'authorization'),
    payload.query,
    payload.operationName ?? null,
    payload.variables ?? null,
  ]);
}

type Enveloped = ReturnType<YogaServerInstance<Record<string, unknown>, Record<string, unknown>>['getEnveloped']>;

export function attachGraphQLWebSocket(server: Server, yoga: YogaServerInstance<any, any>, deps: MonitoringDeps, keepAliveMs = 12_000) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const shared = createSharedSubscriptions();
  const disposable = useServer(
    {
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: Enveloped['execute'] }).execute(args),
      subscribe: (args: ExecutionArgs) => {
        const { subscribe, shareKey } = args.rootValue as { subscribe: Enveloped['subscribe']; shareKey: string };
        return shared.subscribe(shareKey, async () => subscribe(args));
      },
      onConnect: async (ctx) => {
        const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
        const apiKey = headerFrom(params, 'x-api-key');
        const authorization = headerFrom(params, 'authorization');
        try {
          if (apiKey !== null) await authenticate(deps.db, apiKey, 'read');
          if (authorization !== null) await viewerFromToken(deps.db, tokenFrom(authorization));
          return true;
        } catch {
          return false; // graphql-ws closes with 4403 Forbidden
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          connectionParams: ctx.connectionParams,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        try {
          const document = parse(payload.query);
          // Query limits (graphql-armor) throw from validation; syntax errors from parsing.
          const errors = validate(schema, document);
          if (errors.length) return errors;
          return {
            schema,
            operationName: payload.operationName,
            document,
            variableValues: payload.variables,
            contextValue: liveClock(await contextFactory(), deps),
            // Same credentials, document and variables: the same results (shared-subscriptions.ts).
            rootValue: { execute, subscribe, shareKey: shareKeyOf(ctx.connectionParams, payload) },
          };
        } catch (err) {
          if (err instanceof Error && 'locations' in err) return [err as GraphQLError];
          throw err;
        }
      },
    },
    wss,
    keepAliveMs,
  );
  return {
    wss,
    shared,
    async close() {
      for (const client of wss.clients) client.terminate();
      await disposable.dispose();
    },
  };
}
