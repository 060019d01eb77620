// The Check type and the queries and mutations that return checks. Resolvers parse,
// authorize, call the domain and shape; behaviour lives in src/monitoring/.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import * as checks from '../../../monitoring/checks/service.ts';
import { checkState, tagList } from '../../../monitoring/checks/derived.ts';
import { parseFlipsQuery } from '../../../monitoring/flips/flips-query.ts';
import { flipsRange } from '../../../monitoring/flips/service.ts';
import { PING_LIST_MAX } from '../../../monitoring/pings/service.ts';
import { pingUrl } from '../../../monitoring/pings/url.ts';
import { validationError } from '../../../shared/errors.ts';
import { accessToProjectArg, checkArgument, inProjects } from './project-access.ts';
import { Ping, listedPings } from './ping.ts';
import { Channel } from './channel.ts';
import { CHANNEL_KINDS } from '../../../monitoring/integrations/kinds/index.ts';
import { writableProject } from '../../../monitoring/access.ts';
import { Notification, NOTIFICATIONS_MAX, notificationsSelection } from './notification.ts';
import { pageArgument } from '../pagination.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';

// GraphQL follows API v3 semantics: the slug is the client's, never derived from the name; the
// REST URLs a check shows (updateUrl, pauseUrl, resumeUrl) point at /api/v3/ accordingly.
const API_VERSION = 3;

export const CheckStatus = builder.enumType('CheckStatus', {
  values: { NEW: { value: 'new' }, UP: { value: 'up' }, GRACE: { value: 'grace' }, DOWN: { value: 'down' }, PAUSED: { value: 'paused' } } as const,
});
export const CheckKind = builder.enumType('CheckKind', {
  values: { SIMPLE: { value: 'simple' }, CRON: { value: 'cron' }, ONCALENDAR: { value: 'oncalendar', description: 'systemd OnCalendar schedule' } } as const,
});
const Methods = builder.enumType('PingMethods', {
  description: 'ANY: HEAD, GET and POST pings count; POST: only POST pings count',
  values: { ANY: { value: '' }, POST: { value: 'POST' } } as const,
});

// Healthchecks hides URLs, channels and pings from read-only keys.
// A read-only member is held to the same rule as a read-only key.
const requireReadWrite = async (ctx: GraphQLContext, projectId: string) => writableProject(await ctx.access(projectId));
const hiddenFromReadOnly = async (ctx: GraphQLContext, projectId: string) => (await ctx.access(projectId)).readOnly;
/** A value only read-write keys see (REST omits the key; GraphQL answers null). */
const readWriteOnly = <T>(value: () => T) => async (ctx: GraphQLContext, projectId: string) => ((await hiddenFromReadOnly(ctx, projectId)) ? null : value());

export const Check = builder.prismaNode('Check', {
  // The global ID encodes the row id, not the UUID, which read-only keys may not see.
  id: nodeId((c: { id: number }) => c.id, intKey),
  // `node` reads a check of the key's project only (read-only keys too); another project's is null.
  findUnique: async (id, ctx) => ({ id: asInt(id), projectId: inProjects(await ctx.readableProjects()) }),
  nullable: true,
  // No type-level `select`: the domain functions return whole rows (CheckRecord), so every
  // scalar column is present; relations are declared per field below and load batched.
  fields: (t) => ({
    uuid: t.id({
      nullable: true,
      description: 'The UUID of the check (REST paths, ping URLs, `check(id:)` and the mutations take it); null for read-only keys (use uniqueKey)',
      resolve: (c, _a, ctx) => readWriteOnly(() => c.code)(ctx, c.projectId),
    }),
    uniqueKey: t.exposeString('uniqueKey', { description: 'Stable identifier shown to read-only keys too' }),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    tags: t.stringList({ resolve: (c) => tagList(c.tags) }),
    tagsString: t.exposeString('tags', { description: 'The tags as stored: space-separated (REST\'s `tags`)' }),
    desc: t.exposeString('desc'),
    kind: t.field({ type: CheckKind, resolve: (c) => c.kind as 'simple' | 'cron' | 'oncalendar' }),
    timeout: t.int({ nullable: true, description: 'Seconds; simple checks only', resolve: (c) => (c.kind === 'simple' ? c.timeout : null) }),
    schedule: t.string({ nullable: true, description: 'Cron and OnCalendar checks only', resolve: (c) => (c.kind === 'simple' ? null : c.schedule) }),
    tz: t.string({ nullable: true, description: 'Cron and OnCalendar checks only', resolve: (c) => (c.kind === 'simple' ? null : c.tz) }),
    grace: t.exposeInt('grace', { description: 'Seconds' }),
    nPings: t.exposeInt('nPings'),
    status: t.field({
      type: CheckStatus,
      description: 'Computed at the request\'s time (one instant for the whole response)',
      resolve: (c, _a, ctx) => checkState(c, ctx.now).status,
    }),
    started: t.boolean({ resolve: (c, _a, ctx) => checkState(c, ctx.now).started }),
    lastPing: t.expose('lastPing', { type: 'DateTime', nullable: true }),
    nextPing: t.field({ type: 'DateTime', nullable: true, resolve: (c, _a, ctx) => checkState(c, ctx.now).nextPing }),
    lastDuration: t.int({
      nullable: true,
      description: 'Whole seconds between the last matching start and completion; null when unknown or zero (as REST omits it)',
      resolve: (c) => (c.lastDurationMs ? Math.trunc(c.lastDurationMs / 1000) || null : null),
    }),
    manualResume: t.exposeBoolean('manualResume'),
    methods: t.field({ type: Methods, resolve: (c) => (c.methods === 'POST' ? 'POST' : '') }),
    startKw: t.exposeString('startKw'),
    successKw: t.exposeString('successKw'),
    failureKw: t.exposeString('failureKw'),
    filterSubject: t.exposeBoolean('filterSubject'),
    filterBody: t.exposeBoolean('filterBody'),
    filterHttpBody: t.exposeBoolean('filterHttpBody'),
    filterDefaultFail: t.exposeBoolean('filterDefaultFail'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    pingUrl: t.string({
      nullable: true,
      description: 'null for read-only keys',
      resolve: (c, _a, ctx) => readWriteOnly(() => pingUrl(ctx.deps.settings, c.code))(ctx, c.projectId),
    }),
    updateUrl: t.string({
      nullable: true,
      description: 'The REST (API v3) URL of this check; null for read-only keys',
      resolve: (c, _a, ctx) => readWriteOnly(() => restUrl(ctx, c.code))(ctx, c.projectId),
    }),
    pauseUrl: t.string({
      nullable: true,
      description: 'null for read-only keys',
      resolve: (c, _a, ctx) => readWriteOnly(() => `${restUrl(ctx, c.code)}/pause`)(ctx, c.projectId),
    }),
    resumeUrl: t.string({
      nullable: true,
      description: 'null for read-only keys',
      resolve: (c, _a, ctx) => readWriteOnly(() => `${restUrl(ctx, c.code)}/resume`)(ctx, c.projectId),
    }),
    badgeUrl: t.string({ resolve: (c, _a, ctx) => `${ctx.deps.settings.siteRoot}/b/2/${c.badgeKey}.svg` }),
    // Read-write-only lists are nullable so that a read-only key's query keeps its other data:
    // the field is null with an UNAUTHENTICATED "wrong api key" error at its path.
    channels: t.field({
      type: [Channel],
      nullable: true,
      description: 'Channels notified about this check (read-write keys only)',
      // As Project.channels: a kind the enum cannot name (kept from a Healthchecks import) is left out.
      select: (_args, _ctx, nested) => ({ channels: { where: { channel: { kind: { in: [...CHANNEL_KINDS] } } }, select: { channel: nested(true) } } }),
      resolve: async (c, _a, ctx) => {
        await requireReadWrite(ctx, c.projectId);
        return c.channels.map((cc) => cc.channel);
      },
    }),
    pings: t.field({
      type: [Ping],
      nullable: true,
      description: 'Newest first, at most the project\'s pingLogLimit (read-write keys only)',
      args: { first: t.arg.int({ defaultValue: 100, description: `0 to ${PING_LIST_MAX}; the project's pingLogLimit caps the list` }) },
      resolve: (c, args, ctx, info) => {
        const first = pageArgument('first', args.first, PING_LIST_MAX) ?? 100;
        // The same window as REST's listPings, read for every check of the response at once;
        // once the request has authenticated and the batch is read (Project.checks prefetches
        // it), without a promise: a dashboard resolves this field for 100 checks.
        const known = ctx.knownAccess(c.projectId);
        if (!known) return requireReadWrite(ctx, c.projectId).then(() => listedPings(ctx, c.id, first, info, c.projectId));
        writableProject(known);
        return listedPings(ctx, c.id, first, info, c.projectId);
      },
    }),
    notifications: t.field({
      type: [Notification],
      nullable: true,
      description: 'Alerts about this check, newest first, with how their delivery went (read-write keys only)',
      args: { first: t.arg.int({ defaultValue: 20, description: `0 to ${NOTIFICATIONS_MAX}` }) },
      select: (args, _ctx, nested) => ({ notifications: notificationsSelection(args.first, nested) }),
      resolve: async (c, args, ctx) => {
        pageArgument('first', args.first, NOTIFICATIONS_MAX);
        await requireReadWrite(ctx, c.projectId);
        return c.notifications;
      },
    }),
    pingEmail: t.string({
      nullable: true,
      description: 'Mail to this address pings the check (null when the SMTP listener is off, or for read-only keys)',
      resolve: (c, _a, ctx) => (ctx.deps.settings.pingEmailDomain ? readWriteOnly(() => `${c.code}@${ctx.deps.settings.pingEmailDomain}`)(ctx, c.projectId) : null),
    }),
    flips: t.relation('flips', {
      description: 'Status changes, newest first; seconds/start/end filter as in the REST API',
      args: { seconds: t.arg.int(), start: t.arg.int(), end: t.arg.int() },
      query: (args, ctx) => {
        const str = (v: number | null | undefined) => (v === null || v === undefined ? undefined : String(v));
        // The REST query rules (and messages), applied to GraphQL's integers.
        const filter = parseFlipsQuery({ seconds: str(args.seconds), start: str(args.start), end: str(args.end) });
        return { where: { createdAt: flipsRange(filter, ctx.now) }, orderBy: { id: 'desc' } };
      },
    }),
  }),
});

/** What every check `id` argument takes (project-access.ts, checkArgument). */
export const CHECK_ID = 'The check’s UUID, or its global `id`';

const restUrl = (ctx: GraphQLContext, code: string) => `${ctx.deps.settings.siteRoot}/api/v${API_VERSION}/checks/${code}`;

const UniqueField = builder.enumType('UniqueField', {
  values: { NAME: { value: 'name' }, SLUG: { value: 'slug' }, TAGS: { value: 'tags' }, TIMEOUT: { value: 'timeout' }, GRACE: { value: 'grace' } } as const,
});

export const CheckInput = builder.inputType('CheckInput', {
  description: 'Fields of a check; omitted fields keep their value (or take the default on create)',
  fields: (t) => ({
    name: t.string(),
    slug: t.string(),
    tags: t.string({ description: 'Space-separated' }),
    desc: t.string(),
    timeout: t.int({ description: 'Seconds, 60 to 31536000; makes the check a simple check' }),
    grace: t.int({ description: 'Seconds, 60 to 31536000' }),
    schedule: t.string({ description: 'A five-field cron expression (one line of five fields) or systemd OnCalendar expressions (one per line); makes the check a cron or OnCalendar check, as Healthchecks decides' }),
    tz: t.string(),
    manualResume: t.boolean(),
    methods: t.field({ type: Methods }),
    channels: t.string({ description: '"*" for all, "" for none, or comma-separated channel ids or names' }),
    startKw: t.string(),
    successKw: t.string(),
    failureKw: t.string(),
    filterSubject: t.boolean(),
    filterBody: t.boolean(),
    filterHttpBody: t.boolean(),
    filterDefaultFail: t.boolean(),
    unique: t.field({ type: [UniqueField], description: 'Upsert: update the first check equal on these fields' }),
  }),
});

const snakeCase = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** GraphQL input → Healthchecks' request body, so both transports share one validation. */
export function toSpecBody(input: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    // An explicit GraphQL null means "not given", like an omitted field.
    if (value !== null && value !== undefined) body[snakeCase(key)] = value;
  }
  return body;
}

const CheckPayload = builder.objectRef<{ check: checks.CheckRecord; created: boolean }>('CreateCheckPayload').implement({
  fields: (t) => ({
    check: t.field({ type: Check, resolve: (p) => p.check }),
    created: t.exposeBoolean('created', { description: 'false when `unique` matched an existing check' }),
  }),
});

builder.queryField('check', (t) =>
  t.field({
    type: Check,
    description: 'A check of the key’s project, by UUID (or global `id`) or by unique key',
    args: { id: t.arg.id({ description: CHECK_ID }), uniqueKey: t.arg.string(), project: t.arg.id({ description: 'The project (signed-in people, with uniqueKey); a key\'s own when omitted' }) },
    resolve: async (_root, args, ctx) => {
      if (args.id) {
        const { access, code } = await checkArgument(ctx, args.id);
        return checks.getCheck(ctx.deps, access, code);
      }
      if (args.uniqueKey) return checks.getCheckByUniqueKey(ctx.deps, await accessToProjectArg(ctx, args.project), args.uniqueKey);
      throw validationError('give id or uniqueKey');
    },
  }),
);

builder.mutationFields((t) => ({
  createCheck: t.field({
    type: CheckPayload,
    args: { input: t.arg({ type: CheckInput, required: true }), project: t.arg.id({ description: 'The project to create it in (signed-in people); a key\'s own when omitted' }) },
    resolve: async (_root, { input, project }, ctx) => checks.createCheck(ctx.deps, await accessToProjectArg(ctx, project), toSpecBody(input), API_VERSION),
  }),
  updateCheck: t.field({
    type: Check,
    args: { id: t.arg.id({ required: true, description: CHECK_ID }), input: t.arg({ type: CheckInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => {
      const { access, code } = await checkArgument(ctx, id);
      return checks.updateCheck(ctx.deps, access, code, toSpecBody(input), API_VERSION);
    },
  }),
  pauseCheck: t.field({
    type: Check,
    args: { id: t.arg.id({ required: true, description: CHECK_ID }) },
    resolve: async (_root, { id }, ctx) => {
      const { access, code } = await checkArgument(ctx, id);
      return checks.pauseCheck(ctx.deps, access, code);
    },
  }),
  resumeCheck: t.field({
    type: Check,
    args: { id: t.arg.id({ required: true, description: CHECK_ID }) },
    resolve: async (_root, { id }, ctx) => {
      const { access, code } = await checkArgument(ctx, id);
      return checks.resumeCheck(ctx.deps, access, code);
    },
  }),
  deleteCheck: t.field({
    type: Check,
    description: 'Deletes the check; returns it as it was',
    args: { id: t.arg.id({ required: true, description: CHECK_ID }) },
    resolve: async (_root, { id }, ctx) => {
      const { access, code } = await checkArgument(ctx, id);
      return checks.deleteCheck(ctx.deps, access, code);
    },
  }),
}));
