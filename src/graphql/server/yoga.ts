// graphql-yoga serving the Pothos schema at /graphql. GraphiQL is rendered from installed
// packages (no CDN, works offline) once, then served with a validator so browsers cache it.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga, maskError as yogaMaskError, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Registry } from 'prom-client';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { Logger } from 'pino';
import type { GatewayServices } from '../../services.ts';
import { createContext, operationHeader } from './context.ts';
import { fromNodeHeaders, usableSessionToken } from '../../http/session-cookie.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { clientError, isClientGraphQLError, toGraphQLError } from './errors.ts';
import { ARMOR, MAX_REQUEST_BYTES, REQUEST_TOO_LARGE_MESSAGE, useRequestLimits } from './limits.ts';
import { schema } from '../schema/schema.ts';
import { compiledExecution } from './compiled-execution.ts';
import type { LoginThrottle } from '../../campus/login-throttle.ts';
import { clientOf } from '../../http/client-address.ts';
import { isTextTheDatabaseRefused } from '../../db/refused-text.ts';

type ServerContext = { req: IncomingMessage; res: ServerResponse };

export function createYogaServer(services: GatewayServices, log: Logger, registry?: Registry, loginThrottle: LoginThrottle | null = null): YogaServerInstance<ServerContext, GraphQLContext> {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    // Bodies past the limit are refused with 413 before they are read whole (Content-Length
    // first, then counted as they stream in).
    maxRequestBodySize: MAX_REQUEST_BYTES,
    plugins: [
      useRequestLimits(),
      // Query limits (depth, cost, aliases, directives, tokens): see limits.ts.
      EnvelopArmorPlugin(ARMOR),
      // Operation counts, durations and errors by operation name; /metrics serves them.
      ...(registry
        ? [
            usePrometheus({
              registry,
              endpoint: false,
              metrics: {
                graphql_envelop_request: true,
                graphql_envelop_request_duration: true,
                graphql_envelop_error_result: true,
                graphql_envelop_phase_subscribe: true,
              },
            }),
          ]
        : []),
      // Queries and mutations run compiled (graphql-jit), kept for the last few hundred documents.
      compiledExecution({ registry }).plugin,
    ],
    // HTTP requests carry headers (an HTTP body's `extensions.headers` is ignored); WebSocket
    // operations carry them in their extensions or the connection's params (ws.ts).
    context: (initial) => {
      const { request, connectionParams, params, req, res } = initial as { request?: Request; connectionParams?: Record<string, unknown>; params?: { extensions?: unknown }; req?: IncomingMessage; res?: ServerResponse };
      const header = (name: string) => (request ? request.headers.get(name) : operationHeader(connectionParams, params?.extensions, name));
      // `req` is the HTTP request, or the socket's upgrade request (ws.ts), whose cookie and
      // origin decide for every operation on that socket.
      const siteRoot = services.identity.settings.siteRoot;
      const sessionToken = request
        ? usableSessionToken(request.method, (name) => request.headers.get(name), siteRoot)
        : req
          ? usableSessionToken('GET', fromNodeHeaders(req.headers), siteRoot)
          : null;
      const browser =
        request && res
          ? { sessionToken, userAgent: request.headers.get('user-agent'), setCookie: (cookie: string) => void res.appendHeader('Set-Cookie', cookie) }
          : null;
      return createContext(services, header('x-api-key'), header('authorization'), { clientAddress: req ? clientOf(req).address : undefined, loginThrottle, sessionToken, browser });
    },
    // Masking stays on: only DomainErrors (mapped to a code) and GraphQL's own request errors
    // reach the client, each with an `extensions.code`; anything else is logged and shown as
    // "Unexpected error." (INTERNAL_SERVER_ERROR).
    maskedErrors: {
      maskError(error, message) {
        const known = toGraphQLError(error);
        if (known) {
          // The client's fault, but a path without its NUL rule (docs/decisions.md): worth a warning.
          const original = (error as { originalError?: unknown }).originalError ?? error;
          if (isTextTheDatabaseRefused(original)) log.warn({ err: error }, 'GraphQL request refused: text the database cannot store');
          return known;
        }
        // GraphQL's own errors (syntax, validation, query limits, variables) are meant for the client.
        if (isClientGraphQLError(error)) return clientError(error, { REQUEST_ENTITY_TOO_LARGE: REQUEST_TOO_LARGE_MESSAGE });
        log.error({ err: error }, 'unexpected GraphQL error');
        // Yoga's mask keeps the path and locations (which field failed) and adds
        // INTERNAL_SERVER_ERROR; never the original error, whatever NODE_ENV says.
        return yogaMaskError(error, message, false);
      },
    },
  });
}

let graphiqlPage: { html: string; etag: string } | undefined;
function graphiql() {
  if (!graphiqlPage) {
    const html = renderGraphiQL({
      title: 'Cron & Campus Gateway',
      endpoint: '/graphql',
      // Subscriptions in GraphiQL run over WebSocket (graphql-transport-ws) on this endpoint.
      subscriptionsProtocol: 'WS',
      headers: JSON.stringify({ 'X-Api-Key': '' }),
      defaultQuery: '{\n  project {\n    name\n    checks { nodes { name status lastPing } }\n  }\n}\n',
    } as Parameters<typeof renderGraphiQL>[0]);
    graphiqlPage = { html, etag: `"${createHash('sha1').update(html).digest('base64url')}"` };
  }
  return graphiqlPage;
}

export function createGraphQLHandler(services: GatewayServices, log: Logger, registry?: Registry, loginThrottle: LoginThrottle | null = null) {
  const yoga = createYogaServer(services, log, registry, loginThrottle);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html') && !req.url?.includes('query=')) {
      const page = graphiql();
      if (req.headers['if-none-match'] === page.etag) {
        res.writeHead(304, { ETag: page.etag });
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=3600', ETag: page.etag });
      return res.end(page.html);
    }
    // A body refused part-way (413) is left unread: answer with `Connection: close` and close
    // the connection after the answer, since what the client still sends cannot be a next request.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      if (!req.complete) res.shouldKeepAlive = false;
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    return yoga(req, res, { req, res });
  };
  return { yoga, handle };
}
