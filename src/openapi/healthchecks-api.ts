// The Management API (/api/v1/, /api/v2/, /api/v3/) as rest-compat/healthchecks/api-routes.ts
// serves it: every path under each version, the key each needs, and the status codes the
// handlers and errors.ts answer. The versions differ only where the serializers do: v1's
// `status` may be "started", v2's flips are a bare array, v1/v2 derive `slug` from `name`.
import type { Operation, Parameter, Paths, Response, Schema } from './types.ts';
import { json, pathParam, ref, text } from './types.ts';
import { UNIQUE_KEY_PATTERN, UUID_PATTERN } from './healthchecks-schemas.ts';

export const API_VERSIONS = [1, 2, 3] as const;
type Version = (typeof API_VERSIONS)[number];

const error = (description: string): Response => json(ref('Error'), description);

const refusals = {
  400: error('The body is not a JSON object, or a field is invalid ("json validation error: ...").'),
  401: error('"missing api key" (none, or not 32 characters) or "wrong api key" (unknown; read-only on a write endpoint).'),
  403: error('"forbidden": the check belongs to another project.'),
  404: error('"not found": no such check, or an identifier of the wrong shape.'),
  413: error('The body is over 2.5 MB.'),
  429: {
    ...error('"rate limit exceeded, try again in <n> seconds" (RATE_LIMIT_API, per key).'),
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
  },
} satisfies Record<number, Response>;

type Code = keyof typeof refusals;
const pick = (...codes: Code[]) => Object.fromEntries(codes.map((c) => [String(c), refusals[c]]));

const uuid = pathParam('uuid', { type: 'string', pattern: UUID_PATTERN }, "The check's UUID.");
const uuidOrKey = pathParam('check', { anyOf: [{ type: 'string', pattern: UUID_PATTERN }, { type: 'string', pattern: UNIQUE_KEY_PATTERN }] }, "The check's UUID, or (read-only keys) its unique_key.");
const uuidParam = { ...uuid, name: 'check' };

const READ = [{ ApiKey: [] }];
const WRITE = [{ ApiKey: [] }];
const specBody = (required: boolean) => ({ required, content: { 'application/json': { schema: ref('CheckSpec') } } });

function versionPaths(v: Version): Paths {
  const base = `/api/v${v}`;
  const check = ref(v === 1 ? 'CheckV1' : 'Check');
  const checks = ref(v === 1 ? 'CheckListV1' : 'CheckList');
  const op = (name: string, o: Omit<Operation, 'operationId' | 'tags'>): Operation => ({ operationId: `v${v}_${name}`, tags: [`api v${v}`], ...o });
  const note = v === 3 ? '' : ` Differs from v3: ${v === 1 ? 'status is "started" while a run is in progress; ' : ''}${v === 2 ? 'flips are a bare array; ' : ''}slug is derived from name.`;
  const flipsBody: Schema = v === 2 ? { type: 'array', items: ref('Flip') } : ref('FlipList');

  const flipParams: Parameter[] = [
    uuidOrKey,
    { name: 'seconds', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Flips of the last <seconds> (the last value counts when repeated).' },
    { name: 'start', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Unix time: flips at or after it.' },
    { name: 'end', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Unix time: flips before it.' },
  ];

  return {
    [`${base}/checks/`]: {
      get: op('listChecks', {
        summary: 'List the checks of the key\'s project',
        description: `Read key. \`tag\` is repeatable (AND-ed, exact); \`slug\` matches exactly.${note}`,
        parameters: [
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string', maxLength: 500 }, maxItems: 100 }, style: 'form', explode: true },
          { name: 'slug', in: 'query', schema: { type: 'string', maxLength: 100 } },
        ],
        security: READ,
        responses: { '200': json(checks, 'The checks.'), ...pick(400, 401, 429) },
      }),
      post: op('createCheck', {
        summary: 'Create a check (or update the one `unique` finds)',
        description: `Write key (header or \`api_key\`).${note}`,
        requestBody: specBody(false),
        security: WRITE,
        responses: { '200': json(check, 'An existing check matched `unique` and was updated.'), '201': json(check, 'Created.'), ...pick(400, 401, 413, 429) },
      }),
    },
    [`${base}/checks/{check}`]: {
      get: op('getCheck', {
        summary: 'One check, by UUID or unique_key',
        parameters: [uuidOrKey],
        security: READ,
        responses: { '200': json(check, 'The check.'), ...pick(401, 403, 404, 429) },
      }),
      post: op('updateCheck', {
        summary: 'Change a check (only the fields sent)',
        description: note.trim() || undefined,
        parameters: [uuidParam],
        requestBody: specBody(false),
        security: WRITE,
        responses: { '200': json(check, 'The check as changed.'), ...pick(400, 401, 403, 404, 413, 429) },
      }),
      delete: op('deleteCheck', {
        summary: 'Delete a check',
        parameters: [uuidParam],
        security: WRITE,
        responses: { '200': json(check, 'The check as it was.'), ...pick(401, 403, 404, 429) },
      }),
    },
    [`${base}/checks/{uuid}/pause`]: {
      post: op('pauseCheck', {
        summary: 'Pause a check (already paused: nothing changes)',
        parameters: [uuid],
        security: WRITE,
        responses: { '200': json(check, 'The check, paused.'), ...pick(400, 401, 403, 404, 413, 429) },
      }),
    },
    [`${base}/checks/{uuid}/resume`]: {
      post: op('resumeCheck', {
        summary: 'Resume a paused check',
        parameters: [uuid],
        security: WRITE,
        responses: {
          '200': json(check, 'The check, status "new".'),
          '409': text('"check is not paused", plain text as Healthchecks answers.', 'text/html'),
          ...pick(400, 401, 403, 404, 413, 429),
        },
      }),
    },
    [`${base}/checks/{uuid}/pings/`]: {
      get: op('listPings', {
        summary: 'The check\'s pings, newest first (the project\'s ping log limit)',
        parameters: [uuid],
        security: WRITE,
        responses: { '200': json(ref('PingList'), 'The pings.'), ...pick(401, 403, 404, 429) },
      }),
    },
    [`${base}/checks/{uuid}/pings/{n}/body`]: {
      get: op('getPingBody', {
        summary: 'A ping\'s body, bytes verbatim',
        parameters: [uuid, pathParam('n', { type: 'integer', minimum: 0 })],
        security: WRITE,
        responses: { '200': text('The body.'), ...pick(401, 403, 429), '404': error('No such ping, or it has no body.') },
      }),
    },
    [`${base}/checks/{check}/flips/`]: {
      get: op('listFlips', {
        summary: 'The check\'s status changes',
        description: v === 2 ? 'v2 answers a bare array (v1 and v3: {"flips": [...]}).' : undefined,
        parameters: flipParams,
        security: READ,
        responses: { '200': json(flipsBody, 'The flips.'), '400': error('"invalid flips query".'), ...pick(401, 403, 404, 429) },
      }),
    },
    [`${base}/channels/`]: {
      get: op('listChannels', {
        summary: 'The project\'s notification channels',
        security: WRITE,
        responses: { '200': json(ref('ChannelList'), 'The channels.'), ...pick(401, 429) },
      }),
    },
    [`${base}/badges/`]: {
      get: op('listBadges', {
        summary: 'Badge URLs per tag ("*": all checks)',
        security: READ,
        responses: { '200': json(ref('BadgeList'), 'The badge URLs.'), ...pick(401, 429) },
      }),
    },
    [`${base}/status/`]: {
      get: op('status', {
        summary: 'Whether the database answers (any method; no key)',
        security: [],
        responses: { '200': text('"OK".'), '503': text('"database unavailable".') },
      }),
    },
    [`${base}/notifications/{uuid}/status`]: {
      post: op('notificationStatus', {
        summary: 'Twilio\'s delivery report for an SMS, WhatsApp message or call (no key: the UUID is one)',
        parameters: [{ ...uuid, description: 'The notification\'s UUID.' }],
        security: [],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { MessageStatus: { type: 'string' }, CallStatus: { type: 'string' } } } } },
        },
        responses: { '200': { description: 'Taken (empty body).' }, '400': error('Not a form, too large, or unreadable.'), '404': error('No notification has this UUID.') },
      }),
    },
  };
}

export function healthchecksApiPaths(): Paths {
  return Object.assign({}, ...API_VERSIONS.map(versionPaths));
}

/** Prometheus export (rest-compat/healthchecks/prometheus-routes.ts), any method; GET described. */
export function prometheusPaths(): Paths {
  const project = pathParam('project', { type: 'string', pattern: UUID_PATTERN }, 'The project\'s UUID (not compared with the key\'s project, as in Healthchecks).');
  const key = pathParam('key', { type: 'string', pattern: '^[-a-zA-Z0-9_]+$' }, 'A read-only API key.');
  const responses = (withHeader: boolean): Record<string, Response> => ({
    '200': text('Healthchecks\' exposition text.'),
    ...(withHeader ? { '401': error('"missing api key": no `Authorization: Bearer`.') } : {}),
    '400': error('"wrong api key length".'),
    '403': error('"wrong api key": unknown, or not a read-only key.'),
    '404': error('"not found" (also with PROMETHEUS_ENABLED=False).'),
  });
  const op = (operationId: string, summary: string, parameters: Parameter[], withHeader: boolean): Operation => ({
    operationId,
    summary,
    tags: ['prometheus'],
    parameters,
    security: withHeader ? [{ MetricsBearer: [] }] : [],
    responses: responses(withHeader),
  });
  return {
    '/projects/{project}/metrics/{key}': { get: op('prometheusMetrics', 'The project\'s checks as Prometheus metrics', [project, key], false) },
    '/projects/{project}/checks/metrics/{key}': { get: op('prometheusMetricsOld', 'The same (Healthchecks\' older path)', [project, key], false) },
    '/projects/{project}/metrics/': { get: op('prometheusMetricsBearer', 'The same, key in `Authorization: Bearer`', [project], true) },
  };
}
