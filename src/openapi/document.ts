// The OpenAPI 3.1 description of the REST APIs, built from the per-area modules and served at
// /api/openapi.json (src/http/openapi-route.ts). test/openapi/ validates it and holds the real
// responses to it, so a serializer change that is not described here fails a test.
import { campusPaths, campusSchemas } from './campus.ts';
import { healthchecksApiPaths, prometheusPaths } from './healthchecks-api.ts';
import { healthchecksSchemas } from './healthchecks-schemas.ts';
import { badgePaths, pingPaths } from './pings.ts';

export const OPENAPI_PATH = '/api/openapi.json';

export function openapiDocument(siteRoot: string): Record<string, unknown> {
  const doc = {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Check monitoring and campus records: REST APIs',
      version: '1.0.0',
      description:
        'Healthchecks\' Management API (/api/v1/, /api/v2/, /api/v3/), its Ping API and badges, and Slate\'s campus record paths, ' +
        'as this server answers them (docs/rest-compat.md has every rule and error string). The three API versions share paths; ' +
        'v1 may report status "started", v2 lists flips as a bare array, v1 and v2 derive slug from name. Every API answer carries ' +
        'CORS headers (Access-Control-Allow-Origin: *) and OPTIONS answers 204; GraphQL is described by /graphql itself.',
    },
    servers: [{ url: siteRoot, description: 'SITE_ROOT' }],
    tags: [
      { name: 'api v3', description: 'Healthchecks Management API, current version.' },
      { name: 'api v2', description: 'As v3, but flips are a bare array and slug is derived from name.' },
      { name: 'api v1', description: 'As v2, but status is "started" while a run is in progress and flips are {"flips": [...]}.' },
      { name: 'pings', description: 'Healthchecks Ping API: any method, no key.' },
      { name: 'badges', description: 'Public status badges.' },
      { name: 'prometheus', description: 'Per-project Prometheus export.' },
    ],
    paths: { ...healthchecksApiPaths(), ...pingPaths(), ...badgePaths(), ...prometheusPaths(), ...campusPaths() },
    components: {
      schemas: { ...healthchecksSchemas, ...campusSchemas() },
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'A project API key (read-write, or read-only where the operation allows). On POST the key may instead be sent as `api_key` in the JSON body.',
        },
        MetricsBearer: { type: 'http', scheme: 'bearer', description: 'A read-only API key.' },
        CampusToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <token>`: a token from POST /login (data.Handle) or `gateway campus-token create`.' },
        CampusSession: { type: 'apiKey', in: 'query', name: '_session', description: 'The same token as a query parameter (or a `_session` form field).' },
      },
    },
  };
  // Plain JSON: optional keys left undefined by the builders disappear, as they do when served.
  return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
}
