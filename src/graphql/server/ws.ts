// GraphQL over WebSocket (graphql-transport-ws, graphql-ws on ws) on the server's own port at
// /graphql. Operations run through yoga's envelop, so authentication, error masking and
// limits apply exactly as over HTTP. Credentials travel in `connection_init`'s payload as the
// same headers HTTP uses (a bad one closes the socket with 4403 Forbidden), or with each
// operation in its `extensions.headers`, as GraphiQL sends them (a bad one fails that operation).
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { CloseCode } from 'graphql-ws';
import { GraphQLError, Kind, type ExecutionArgs, type ExecutionResult, type GraphQLFormattedError, type OperationDefinitionNode } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { MonitoringDeps } from '../../monitoring/context.ts';
import type { GatewayServices } from '../../services.ts';
import { fromNodeHeaders, usableSessionToken } from '../../http/session-cookie.ts';
import { authenticate } from '../../monitoring/projects/service.ts';
import { viewerFromToken } from '../../campus/auth.ts';
import { headerFrom, operationHeader, tokenFrom } from './context.ts';
import { MAX_JSON_DEPTH, MAX_REQUEST_BYTES } from './limits.ts';
import { jsonNestedDeeperThan } from '../../http/body.ts';
import { clientOf } from '../../http/client-address.ts';

/** The close reason of a message nested too deeply (graphql-ws's 4400 Bad Request). */
export const TOO_DEEP_SOCKET_MESSAGE = `message too deeply nested: at most ${MAX_JSON_DEPTH} levels`;
import { createSharedSubscriptions, REPLAYS_LATEST, Sink } from './shared-subscriptions.ts';
import { nextWriter } from './ws-frames.ts';
import type { Verdict } from '../../http/rate-limit.ts';

/**
 * A subscription's context lives as long as the subscription: its `now` must be each event's
 * time, not the subscribe time, or a status computed for an event hours later would be stale.
 */
function liveClock<C extends object>(context: C, deps: MonitoringDeps): C {
  return Object.defineProperty(context, 'now', { get: () => deps.clock.now(), configurable: true });
}

/** The credentials an operation runs with, as the context reads them (yoga.ts): the key of sharing. */
/**
 * Whether the operation's results are whole states (every root field marked `REPLAYS_LATEST`,
 * e.g. statusPageChanged): a subscriber joining a shared one then gets the latest state at once.
 */
function replaysLatest(args: ExecutionArgs): boolean {
  const type = args.schema.getSubscriptionType();
  const operation = args.document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!args.operationName || d.name?.value === args.operationName),
  );
  const roots = operation?.selectionSet.selections ?? [];
  return !!type && roots.length > 0 && roots.every((s) => s.kind === Kind.FIELD && type.getFields()[s.name.value]?.extensions?.[REPLAYS_LATEST] === true);
}

function shareKeyOf(params: Record<string, unknown> | undefined, payload: { query: string; operationName?: string | null; variables?: unknown; extensions?: unknown }, sessionToken: string | null) {
  // The socket's session is part of the key: one person's results never reach another's socket.
  return JSON.stringify([
    sessionToken,
    operationHeader(params, payload.extensions, 'x-api-key'),
    operationHeader(params, payload.extensions, 'authorization'),
    payload.query,
    payload.operationName ?? null,
    payload.variables ?? null,
  ]);
}

/**
 * An error as a socket client sees it: the code it has over HTTP (a syntax error's included,
 * which yoga adds for HTTP only), without yoga's HTTP status hints.
 */
function socketError(error: GraphQLError, code = 'BAD_REQUEST'): GraphQLFormattedError {
  const { http: _http, ...extensions } = (error.extensions ?? {}) as Record<string, unknown>;
  const formatted = typeof error.toJSON === 'function' ? error.toJSON() : { message: error.message };
  return { ...formatted, extensions: { ...extensions, code: extensions.code ?? code } };
}

const withCode = (error: GraphQLError, code: string) =>
  new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { ...error.extensions, code: error.extensions?.code ?? code } });

type Enveloped = ReturnType<YogaServerInstance<Record<string, unknown>, Record<string, unknown>>['getEnveloped']>;

/** The front door's count of GraphQL requests, for operations that arrive over a socket (http/limits.ts). */
export type AdmitOperation = (credentials: { apiKey: string | null; authorization: string | null }, address: string | undefined) => Promise<Verdict>;

const tooManyRequests = (retryAfter: number) =>
  new GraphQLError(`Too many requests, try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`, { extensions: { code: 'RATE_LIMITED', retryAfter } });

const SERVER_TYPES = new Set(['next', 'error', 'connection_ack']);

/**
 * Unsent bytes past which a shared subscription's subscriber loses new events (its socket is not
 * draining): as the 256-event buffer it has without direct sends, a consumer that falls behind
 * costs a bounded amount of memory and never slows the others.
 */
const MAX_UNSENT_BYTES = MAX_REQUEST_BYTES;

/**
 * A result's `next` payload as graphql-ws would send it after our onNext (below): errors with
 * their codes and without HTTP hints; no `errors` key when there are none.
 */
function nextPayloadJson(result: ExecutionResult): string {
  const { errors, ...rest } = result;
  if (errors?.length) return JSON.stringify({ ...result, errors: errors.map((e) => socketError(e)) });
  return JSON.stringify(errors ? { ...rest, errors: [] } : rest);
}

const nextPayload = (result: ExecutionResult) => Buffer.from(nextPayloadJson(result));

/** The type of a message only a server sends, or null (other messages go to graphql-ws as they are). */
function serverTypeOf(text: string): string | null {
  try {
    const type = (JSON.parse(text) as { type?: unknown } | null)?.type;
    return typeof type === 'string' && SERVER_TYPES.has(type) ? type : null;
  } catch {
    return null; // graphql-ws answers what is not JSON (4400 Invalid message received)
  }
}

export function attachGraphQLWebSocket(server: Server, yoga: YogaServerInstance<any, any>, services: GatewayServices, keepAliveMs = 12_000, admitOperation?: AdmitOperation) {
  const deps = services.monitoring;
  // A message is bounded as an HTTP body is (ws's default is 100 MiB): a larger one closes the
  // socket with 1009 Message Too Big.
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_REQUEST_BYTES });
  // ws then also emits the refusal as an 'error', which graphql-ws would print with
  // console.error as a server fault, once per oversized message. It is the client's doing and
  // the socket is already closed: the event stops here. (Registered before graphql-ws's.)
  // A message nested past MAX_JSON_DEPTH closes the socket with 4400 before graphql-ws parses
  // it, as an HTTP request is refused before yoga reads it: nothing (the headers look-up, the
  // sharing key's JSON.stringify) ever walks a document thousands deep.
  wss.on('connection', (socket) => {
    const emit = socket.emit.bind(socket);
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'error' && (args[0] as { code?: string } | undefined)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return false;
      if (event === 'message') {
        const text = String(args[0]);
        if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
          socket.close(CloseCode.BadRequest, TOO_DEEP_SOCKET_MESSAGE);
          return false;
        }
        // graphql-ws answers a well-formed message of a server's type (next, error,
        // connection_ack) from a client with 4500 Internal Server Error: it is a bad request.
        const type = serverTypeOf(text);
        if (type) {
          socket.close(CloseCode.BadRequest, `unexpected message type from a client: ${type}`);
          return false;
        }
      }
      return emit(event, ...args);
    }) as typeof socket.emit;
  });
  const shared = createSharedSubscriptions(nextPayload);
  const disposable = useServer(
    {
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: Enveloped['execute'] }).execute(args),
      subscribe: (args: ExecutionArgs) => {
        const { subscribe, shareKey } = args.rootValue as { subscribe: Enveloped['subscribe']; shareKey: string };
        return shared.subscribe(shareKey, async () => subscribe(args), { replayLatest: replaysLatest(args) });
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
        // Each operation counts as an HTTP request would, on the budget of the credentials it
        // runs with (or of the client's address): a socket is no way around the limit.
        if (admitOperation) {
          const credentials = { apiKey: operationHeader(ctx.connectionParams, payload.extensions, 'x-api-key'), authorization: operationHeader(ctx.connectionParams, payload.extensions, 'authorization') };
          const verdict = await admitOperation(credentials, clientOf(ctx.extra.request).address);
          if (!verdict.ok) return [tooManyRequests(verdict.retryAfter)];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          connectionParams: ctx.connectionParams,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        let document;
        try {
          // Syntax errors and the token limit (graphql-armor) throw from parsing.
          document = parse(payload.query);
        } catch (err) {
          if (err instanceof Error && 'locations' in err) return [withCode(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')];
          throw err;
        }
        try {
          // The other query limits are validation errors, with their codes (limits.ts).
          const errors = validate(schema, document);
          if (errors.length) return errors;
          return {
            schema,
            operationName: payload.operationName,
            document,
            variableValues: payload.variables,
            contextValue: liveClock(await contextFactory(), deps),
            // Same credentials, document and variables: the same results (shared-subscriptions.ts).
            rootValue: { execute, subscribe, shareKey: shareKeyOf(ctx.connectionParams, payload, usableSessionToken('GET', fromNodeHeaders(ctx.extra.request.headers), services.identity.settings.siteRoot)) },
          };
        } catch (err) {
          if (err instanceof Error && 'locations' in err) return [err as GraphQLError];
          throw err;
        }
      },
      // A shared subscription's results go straight to the socket, serialized once for all its
      // subscribers (shared-subscriptions.ts); graphql-ws still answers `complete` and ends it
      // when the client leaves. The message is the one graphql-ws would send, written as one
      // ready frame (ws-frames.ts).
      onOperation: (ctx, id, _payload, _args, result) => {
        if (!(result instanceof Sink) || !(id in ctx.subscriptions)) return;
        result.sendDirectly(nextWriter(ctx.extra.socket, ctx.extra.request.socket, id, MAX_UNSENT_BYTES));
      },
      // What onSubscribe refused, and each result: codes on every error, no HTTP hints.
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => socketError(e)),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors?.length ? { ...result, errors: result.errors.map((e) => socketError(e)) } : undefined,
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
