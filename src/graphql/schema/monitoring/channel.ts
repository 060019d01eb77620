// The Channel type ("integration") and the mutations that manage channels: create, update,
// test, delete; the project's repeat-alert period. Read-write keys only, as in Healthchecks.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { writableProject } from '../../../monitoring/access.ts';
import * as channels from '../../../monitoring/integrations/service.ts';
import { CHANNEL_KINDS, type ChannelKind as Kind } from '../../../monitoring/integrations/service.ts';
import { channelKind } from '../../../monitoring/integrations/kinds/index.ts';
import type { WebhookSide } from '../../../monitoring/integrations/kinds/webhook/spec.ts';
import { setNagPeriod, testChannel } from '../../../monitoring/notifications/service.ts';
import { Notification, NOTIFICATIONS_MAX, NotificationState, notificationsSelection } from './notification.ts';
import { pageArgument } from '../pagination.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';

/** Built from the domain's list, so a new kind there appears here without an edit. */
export const ChannelKind = builder.enumType('ChannelKind', {
  values: Object.fromEntries(CHANNEL_KINDS.map((k) => [k.toUpperCase(), { value: k }])) as Record<Uppercase<Kind>, { value: Kind }>,
});

const WebhookHeader = builder.objectRef<{ name: string; value: string }>('WebhookHeader').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});
const WebhookSideRef = builder.objectRef<WebhookSide>('WebhookSide').implement({
  description: 'The request sent for one status; an empty url sends nothing for it',
  fields: (t) => ({
    method: t.exposeString('method'),
    url: t.exposeString('url'),
    body: t.exposeString('body'),
    headers: t.field({ type: [WebhookHeader], resolve: (s) => Object.entries(s.headers).map(([name, value]) => ({ name, value })) }),
  }),
});
const WebhookSpecRef = builder.objectRef<{ down: WebhookSide; up: WebhookSide }>('WebhookSpec').implement({
  fields: (t) => ({
    down: t.field({ type: WebhookSideRef, resolve: (s) => s.down }),
    up: t.field({ type: WebhookSideRef, resolve: (s) => s.up }),
  }),
});

export const Channel = builder.prismaNode('Channel', {
  id: nodeId((c: { id: number }) => c.id, intKey),
  // As Project.channels: read-write keys of the channel's project; another project's is null.
  findUnique: async (id, ctx) => ({ id: asInt(id), projectId: writableProject(await ctx.access()) }),
  nullable: true,
  fields: (t) => ({
    uuid: t.exposeID('code', { description: 'The UUID of the channel (the channel mutations and CheckInput.channels take it)' }),
    name: t.exposeString('name'),
    kind: t.field({ type: ChannelKind, resolve: (c) => c.kind as Kind }),
    target: t.string({
      nullable: true,
      description: 'Email address, phone number or URL; null for a webhook with a spec (see webhook)',
      resolve: (c) => (channelKind(c.kind)?.spec?.read(c.value) ? null : c.value),
    }),
    webhook: t.field({
      type: WebhookSpecRef,
      nullable: true,
      description: 'The webhook spec (Healthchecks’ placeholders: $CODE $STATUS $NOW $NAME $NAME_JSON $SLUG $TAGS $TAG1… $JSON $BODY $BODY_JSON $EXITSTATUS)',
      resolve: (c) => channelKind(c.kind)?.spec?.read(c.value) ?? null,
    }),
    notifyDown: t.exposeBoolean('notifyDown'),
    notifyUp: t.exposeBoolean('notifyUp'),
    disabled: t.exposeBoolean('disabled'),
    notifications: t.field({
      type: [Notification],
      description: 'Messages sent (or being sent) here, newest first',
      args: { first: t.arg.int({ defaultValue: 20, description: `0 to ${NOTIFICATIONS_MAX}` }) },
      select: (args, _ctx, nested) => ({ notifications: notificationsSelection(args.first, nested) }),
      resolve: (c, args) => {
        pageArgument('first', args.first, NOTIFICATIONS_MAX);
        return c.notifications;
      },
    }),
  }),
});

const WebhookHeaderInput = builder.inputType('WebhookHeaderInput', {
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});
const WebhookSideInput = builder.inputType('WebhookSideInput', {
  fields: (t) => ({
    method: t.string({ description: 'GET, POST or PUT (default: POST with a body, else GET)' }),
    url: t.string({ required: true }),
    body: t.string(),
    headers: t.field({ type: [WebhookHeaderInput] }),
  }),
});
const WebhookSpecInput = builder.inputType('WebhookSpecInput', {
  description: 'Either side may be left out: nothing is sent for that status',
  fields: (t) => ({ down: t.field({ type: WebhookSideInput }), up: t.field({ type: WebhookSideInput }) }),
});

type SideArg = { method?: string | null; url: string; body?: string | null; headers?: Array<{ name: string; value: string }> | null } | null | undefined;
const side = (s: SideArg) =>
  s ? { method: s.method ?? undefined, url: s.url, body: s.body ?? undefined, headers: Object.fromEntries((s.headers ?? []).map((h) => [h.name, h.value])) } : undefined;
const spec = (w: { down?: SideArg; up?: SideArg } | null | undefined) => (w ? { down: side(w.down), up: side(w.up) } : undefined);

const readWriteProject = async (ctx: GraphQLContext) => writableProject(await ctx.access());

builder.mutationField('createChannel', (t) =>
  t.field({
    type: Channel,
    description: 'Adds a notification channel to the key’s project (read-write keys)',
    args: {
      kind: t.arg({ type: ChannelKind, required: true }),
      value: t.arg.string({ description: 'Email address, http(s) URL or E.164 phone number (webhooks: or give `webhook`)' }),
      webhook: t.arg({ type: WebhookSpecInput }),
      name: t.arg.string(),
      notifyDown: t.arg.boolean({ description: 'Send "down" alerts here (default true)' }),
      notifyUp: t.arg.boolean({ description: 'Send "up" alerts here (default true)' }),
    },
    resolve: async (_root, args, ctx) =>
      channels.createChannelFor(ctx.deps, await ctx.access(), {
        kind: args.kind,
        value: args.value ?? undefined,
        webhook: spec(args.webhook),
        name: args.name ?? '',
        notifyDown: args.notifyDown ?? undefined,
        notifyUp: args.notifyUp ?? undefined,
      }),
  }),
);

builder.mutationField('updateChannel', (t) =>
  t.field({
    type: Channel,
    description: 'Changes a channel of the key’s project; arguments left out keep their value',
    args: {
      id: t.arg.id({ required: true }),
      value: t.arg.string(),
      webhook: t.arg({ type: WebhookSpecInput }),
      name: t.arg.string(),
      notifyDown: t.arg.boolean(),
      notifyUp: t.arg.boolean(),
      disabled: t.arg.boolean({ description: 'A disabled channel is notified of nothing' }),
    },
    resolve: async (_root, args, ctx) =>
      channels.updateChannel(ctx.deps.db, await readWriteProject(ctx), String(args.id), {
        value: args.value ?? undefined,
        webhook: spec(args.webhook),
        name: args.name ?? undefined,
        notifyDown: args.notifyDown ?? undefined,
        notifyUp: args.notifyUp ?? undefined,
        disabled: args.disabled ?? undefined,
      }),
  }),
);

builder.mutationField('deleteChannel', (t) =>
  t.id({
    description: 'Deletes a channel of the key’s project; returns its id',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await channels.deleteChannel(ctx.deps.db, String(args.id), await readWriteProject(ctx));
      return String(args.id);
    },
  }),
);

const ChannelTestResult = builder
  .objectRef<{ id: string; state: 'sent' | 'pending' | 'failed'; error: string; durationMs: number }>('ChannelTestResult')
  .implement({
    fields: (t) => ({
      ok: t.boolean({ resolve: (r) => r.state === 'sent' }),
      state: t.field({ type: NotificationState, resolve: (r) => r.state }),
      error: t.exposeString('error', { description: 'Empty when the test was delivered' }),
      durationMs: t.exposeInt('durationMs'),
      notification: t.prismaField({
        type: Notification,
        nullable: true,
        resolve: (query, r, _a, ctx) => ctx.deps.db.notification.findUnique({ ...query, where: { code: r.id } }),
      }),
    }),
  });

builder.mutationField('testChannel', (t) =>
  t.field({
    type: ChannelTestResult,
    description: 'Sends a test notification to a channel now and reports how it went (not retried)',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => testChannel(ctx.deps.db, ctx.deps.notifier, await readWriteProject(ctx), String(args.id), ctx.deps.clock.now()),
  }),
);

builder.mutationField('setNagPeriod', (t) =>
  t.boolean({
    description: 'Repeat alerts: while any check is down, remind its channels every `seconds` (60 to 2,592,000); null turns them off',
    args: { seconds: t.arg.int() },
    resolve: async (_root, args, ctx) => {
      await setNagPeriod(ctx.deps.db, await readWriteProject(ctx), args.seconds ?? null);
      return true;
    },
  }),
);
