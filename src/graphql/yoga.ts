// graphql-yoga serving the Pothos schema at /graphql. GraphiQL is rendered from installed
// packages (no CDN, works offline) once, then served with a validator so browsers cache it.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { createYoga, maskError as yogaMaskError, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Registry } from 'prom-client';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../monitoring/context.ts';
import { createContext, headerFrom, type GraphQLContext } from './context.ts';
import { toGraphQLError } from './errors.ts';
import { schema } from './schema.ts';

type ServerContext = { req: IncomingMessage; res: ServerResponse };

export function createYogaServer(deps: MonitoringDeps, log: Logger, registry?: Registry): YogaServerInstance<ServerContext, GraphQLContext> {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    // Query limits (depth, cost, aliases, directives, tokens); over WebSocket too, since
    // graphql-ws operations run through the same envelop.
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: 10 },
        // Armor multiplies a selection's cost by a literal `first`: 50,000 lets a dashboard ask
        // for 100 checks with 10 pings each (about 31,000) and refuses 1,000 × 100.
        costLimit: { maxCost: 50000 },
        maxAliases: { n: 30 },
        maxDirectives: { n: 50 },
        maxTokens: { n: 5000 },
        blockFieldSuggestion: { enabled: false },
      }),
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
    ],
    // HTTP requests carry headers; WebSocket operations carry them in connectionParams.
    context: (initial) => {
      const { request, connectionParams } = initial as { request?: Request; connectionParams?: Record<string, unknown> };
      const header = (name: string) => request?.headers.get(name) ?? headerFrom(connectionParams, name);
      return createContext(deps, header('x-api-key'), header('authorization'));
    },
    // Masking stays on: only DomainErrors (mapped to a code) and GraphQL's own request errors
    // reach the client; anything else is logged and shown as "Unexpected error.".
    maskedErrors: {
      maskError(error, message) {
        const known = toGraphQLError(error);
        if (known) return known;
        // GraphQL's own errors (syntax, validation, query limits) are meant for the client.
        if (isClientGraphQLError(error)) return error as GraphQLError;
        log.error({ err: error }, 'unexpected GraphQL error');
        // Yoga's mask keeps the path and locations (which field failed) and adds
        // INTERNAL_SERVER_ERROR; never the original error, whatever NODE_ENV says.
        return yogaMaskError(error, message, false);
      },
    },
  });
}

function isClientGraphQLError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('locations' in error) || !('message' in error)) return false;
  const original = (error as { originalError?: unknown }).originalError;
  return original === undefined || original === null || isClientGraphQLError(original);
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

export function createGraphQLHandler(deps: MonitoringDeps, log: Logger, registry?: Registry) {
  const yoga = createYogaServer(deps, log, registry);
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
    return yoga(req, res, { req, res });
  };
  return { yoga, handle };
}
