// The Ping API (rest-compat/healthchecks/ping-routes.ts) and the public badges
// (badge-routes.ts). Pings take any method; GET and POST are described. OpenAPI allows one
// template per path shape, so `/ping/{key}/{slug}` also stands for `/ping/<uuid>/<exit status>`.
import type { Operation, Parameter, PathItem, Paths, Response } from './types.ts';
import { json, pathParam, ref, text } from './types.ts';
import { UUID_PATTERN } from './healthchecks-schemas.ts';

const noCache = { 'Cache-Control': { description: 'Never cached.', schema: { type: 'string' } } };
const ok = (): Record<string, Response> => ({
  '200': {
    ...text('"OK": the ping is recorded.'),
    headers: { ...noCache, 'Ping-Body-Limit': { description: 'PING_BODY_LIMIT, when set.', schema: { type: 'integer' } } },
  },
});
const refusals = (slug: boolean): Record<string, Response> => ({
  '400': text('"invalid url format" (exit status over 255, upper-case slug), "invalid uuid format" (`rid`), "request body too large".'),
  '404': text('"not found": no such check, ping key or path.'),
  ...(slug ? { '409': text('"ambiguous slug": several checks of the project have it.') } : {}),
});

const rid: Parameter = { name: 'rid', in: 'query', schema: { type: 'string', pattern: UUID_PATTERN }, description: 'Run id: pairs a start with its completion (`duration`).' };
const create: Parameter = { name: 'create', in: 'query', schema: { type: 'string', enum: ['0', '1'] }, description: '1: create a missing check (201 "Created").' };
const uuid = pathParam('uuid', { type: 'string', pattern: UUID_PATTERN }, "The check's UUID.");
const pingKey = pathParam('key', { type: 'string' }, "The project's ping key (or, with a numeric second segment, a check's UUID).");
const slug = pathParam('slug', { type: 'string', pattern: '^[-a-zA-Z0-9_]+$' }, "The check's slug (or an exit status 0-255 after a check's UUID).");
const exitStatus = pathParam('exit_status', { type: 'integer', minimum: 0, maximum: 255 }, '0 is success, anything else a failure.');

const body = { required: false, description: 'Stored up to PING_BODY_LIMIT bytes; classified when filter_http_body is on.', content: { 'text/plain': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string' } } } };

function item(id: string, summary: string, parameters: Parameter[], bySlug: boolean): PathItem {
  const responses = { ...ok(), ...(bySlug ? { '201': text('"Created": `create=1` made the check.') } : {}), ...refusals(bySlug) };
  const op = (method: string): Operation => ({
    operationId: `${id}_${method}`,
    summary,
    tags: ['pings'],
    parameters: [...parameters, rid, ...(bySlug ? [create] : [])],
    security: [],
    responses,
    ...(method === 'post' ? { requestBody: body } : {}),
  });
  return { description: 'Any HTTP method; `methods: "POST"` on the check ignores the others.', get: op('get'), post: op('post') };
}

export function pingPaths(): Paths {
  const paths: Paths = {
    '/ping/{uuid}': item('ping', 'Success', [uuid], false),
    '/ping/{key}/{slug}': item('pingSlug', 'Success by ping key and slug (or the exit status form /ping/<uuid>/<n>)', [pingKey, slug], true),
    '/ping/{key}/{slug}/{exit_status}': item('pingSlugExit', 'Exit status by slug: 0 success, otherwise failure', [pingKey, slug, exitStatus], true),
  };
  for (const signal of ['start', 'fail', 'log'] as const) {
    paths[`/ping/{uuid}/${signal}`] = item(`ping_${signal}`, `Signal "${signal}"`, [uuid], false);
    paths[`/ping/{key}/{slug}/${signal}`] = item(`pingSlug_${signal}`, `Signal "${signal}" by slug`, [pingKey, slug], true);
  }
  return paths;
}

export function badgePaths(): Paths {
  const fmt = (name: string) => pathParam(name, { type: 'string', pattern: '^.+\\.(svg|json|shields)$' }, '<name>.svg, .json or .shields');
  const responses: Record<string, Response> = {
    '200': {
      description: 'The badge: SVG, Healthchecks\' JSON or Shields\' endpoint JSON.',
      content: { 'image/svg+xml': { schema: { type: 'string' } }, 'application/json': { schema: { anyOf: [ref('BadgeJson'), ref('ShieldsJson')] } } },
    },
    '404': json(ref('Error'), 'Wrong key, signature or format.'),
  };
  const op = (operationId: string, summary: string, parameters: Parameter[]): PathItem => ({ get: { operationId, summary, tags: ['badges'], parameters, security: [], responses } });
  const key = pathParam('badge_key', { type: 'string' }, "The project's badge key.");
  return {
    '/badge/{badge_key}/{file}': op('projectBadge', 'All checks of a project: <signature>[-2].<fmt>', [key, fmt('file')]),
    '/badge/{badge_key}/{signature}/{file}': op('tagBadge', 'Checks with a tag: <signature>[-2]/<tag>.<fmt>', [key, pathParam('signature', { type: 'string' }), fmt('file')]),
    '/b/{states}/{file}': op('checkBadge', 'One check (badge_url): states 2 or 3, <check badge key>.<fmt>', [pathParam('states', { type: 'integer', enum: [2, 3] }), fmt('file')]),
  };
}
