// The Channel type ("integration") and the mutations that manage channels: create, update,
// test, delete; the project's repeat-alert period. Read-write keys only, as in Healthchecks.
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { writableProject } from '../../../monitoring/access.ts';
import { accessToProjectArg, channelArgument, writableProjects, inProjects } from './project-access.ts';
import * as channels from '../../../monitoring/integrations/service.ts';
import { CHANNEL_KINDS, type ChannelKind as Kind } from '../../../monitoring/integrations/service.ts';
import { channelKind } from '../../../monitoring/integrations/kinds/index.ts';
import type { WebhookSide } from '../../../monitoring/integrations/kinds/webhook/spec.ts';
import { setNagPeriod, testChannel } from '../../../monitoring/notifications/service.ts';
import { refuseTooManyTests } from '../../../monitoring/notifications/test-rate.ts';
import { Notification, NOTIFICATIONS_MAX, NotificationState, notificationsSelection } from './notification.ts';
import { pageArgument } from '../pagination.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';
import { executionScope } from '../execution-scope.ts';
import { lastErrorsOf } from '../../../monitoring/notifications/last-errors.ts';
import { askIfWaiting, askRecipient } from '../../../monitoring/integrations/consent.ts';
import { ChannelConfig, ChannelConfigInput, channelConfigOf, configFromArgument } from './channel-config.ts';

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

/** Per execution, the channels' last errors: a list of channels reads them in one batch. */
const lastErrorLoaders = new WeakMap<object, DataLoader<number, string>>();
function lastErrorOf(ctx: GraphQLContext, info: GraphQLResolveInfo, channelId: number): Promise<string> {
  const scope = executionScope(ctx, info);
  let loader = lastErrorLoaders.get(scope);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const errors = await lastErrorsOf(ctx.deps.db, ids);
      return ids.map((id) => errors.get(id) ?? '');
    });
    lastErrorLoaders.set(scope, loader);
  }
  return loader.load(channelId);
}

export const Channel = builder.prismaNode('Channel', {
  id: nodeId((c: { id: number }) => c.id, intKey),
  // As Project.channels: read-write keys of the channel's project; another project's is null.
  // A kind the enum cannot name (a Healthchecks channel imported before its kind exists here) is not shown.
  findUnique: async (id, ctx) => ({ id: asInt(id), projectId: inProjects(await writableProjects(ctx)), kind: { in: [...CHANNEL_KINDS] } }),
  nullable: true,
  fields: (t) => ({
    uuid: t.exposeID('code', { description: 'The UUID of the channel (the channel mutations and CheckInput.channels take it)' }),
    name: t.exposeString('name'),
    // A row stored under Healthchecks' code (an import) shows as the kind it stands for.
    kind: t.field({ type: ChannelKind, resolve: (c) => (channelKind(c.kind)?.kind ?? c.kind) as Kind }),
    target: t.string({
      nullable: true,
      description: 'Email address, phone number, URL or key, or the configuration as Healthchecks stores it (Opsgenie, ntfy: JSON); null for a webhook with a spec (see webhook)',
      resolve: (c) => (channelKind(c.kind)?.spec?.read(c.value) ? null : c.value),
    }),
    webhook: t.field({
      type: WebhookSpecRef,
      nullable: true,
      description: 'The webhook spec (Healthchecks’ placeholders: $CODE $STATUS $NOW $NAME $NAME_JSON $SLUG $TAGS $TAG1… $JSON $BODY $BODY_JSON $EXITSTATUS)',
      resolve: (c) => channelKind(c.kind)?.spec?.read(c.value) ?? null,
    }),
    config: t.field({
      type: ChannelConfig,
      nullable: true,
      description: 'The settings, typed per kind, for kinds whose value packs several (ntfy, Opsgenie, Pushover…); null for a kind whose value is one field (see target)',
      resolve: (c) => channelConfigOf(c),
    }),
    notifyDown: t.exposeBoolean('notifyDown'),
    notifyUp: t.exposeBoolean('notifyUp'),
    disabled: t.exposeBoolean('disabled'),
    emailVerified: t.exposeBoolean('emailVerified', {
      description:
        'false: the address is not its creator’s own and its recipient has not opened the confirmation link mailed to it (or unsubscribed since); alerts fail with "Email not verified" until then. Always true for kinds without a recipient to ask',
    }),
    lastError: t.string({
      description: 'The error of the last delivery attempt here (alert, reminder or test); empty when it succeeded, or none was made',
      resolve: (c, _a, ctx, info) => lastErrorOf(ctx, info, c.id),
    }),
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

/** What every channel `id` argument takes (project-access.ts, channelArgument). */
const CHANNEL_ID = 'The channel’s UUID, or its global `id`';

builder.queryField('channelKinds', (t) =>
  t.field({
    type: [ChannelKind],
    description:
      'The channel kinds this server can send, in the order the API lists them: a kind whose operator setting is missing (TELEGRAM_TOKEN, PUSHOVER_API_TOKEN…) or switched off (SLACK_ENABLED=False…) is not offered, and createChannel refuses it',
    resolve: (_root, _args, ctx) => (ctx.deps.settings.offeredKinds ?? CHANNEL_KINDS) as Kind[],
  }),
);

builder.mutationField('createChannel', (t) =>
  t.field({
    type: Channel,
    description: 'Adds a notification channel to the key’s project (read-write keys)',
    args: {
      kind: t.arg({ type: ChannelKind, required: true }),
      value: t.arg.string({
        description: 'Email address, http(s) URL or E.164 phone number (webhooks: or give `webhook`); for kinds with several settings (PagerDuty, Opsgenie, ntfy, Zulip, Telegram, Pushover, Gotify…) the configuration as Healthchecks stores it (docs/operations.md, the kinds table), or give `config`',
      }),
      webhook: t.arg({ type: WebhookSpecInput }),
      config: t.arg({ type: ChannelConfigInput, description: 'The settings, typed, for kinds whose value packs several: instead of `value`' }),
      name: t.arg.string(),
      notifyDown: t.arg.boolean({ description: 'Send "down" alerts here (default true)' }),
      notifyUp: t.arg.boolean({ description: 'Send "up" alerts here (default true)' }),
      project: t.arg.id({ description: 'The project (signed-in people); a key\'s own when omitted' }),
    },
    resolve: async (_root, args, ctx) => {
      const access = await accessToProjectArg(ctx, args.project);
      const channel = await channels.createChannelFor(ctx.deps, access, {
        kind: args.kind,
        value: args.value ?? undefined,
        webhook: spec(args.webhook),
        config: configFromArgument(args.config, args.kind),
        name: args.name ?? '',
        notifyDown: args.notifyDown ?? undefined,
        notifyUp: args.notifyUp ?? undefined,
      });
      await askIfWaiting(consentMailDeps(ctx), channel, null, access.actor, ctx.deps.clock.now());
      return channel;
    },
  }),
);

const consentMailDeps = (ctx: GraphQLContext) => ({ db: ctx.deps.db, mail: ctx.identity.settings, secretKey: ctx.deps.settings.secretKey, log: ctx.identity.log });

builder.mutationField('sendChannelVerification', (t) =>
  t.boolean({
    description:
      'Mails the recipient of an email channel that waits for consent the link that confirms it, again (at most once in five minutes per channel); true when sent',
    args: { id: t.arg.id({ required: true, description: CHANNEL_ID }) },
    resolve: async (_root, args, ctx) => {
      const { access, code } = await channelArgument(ctx, args.id);
      const channel = await channels.findChannel(ctx.deps.db, writableProject(access), code);
      await askRecipient(consentMailDeps(ctx), channel, access.actor, ctx.deps.clock.now());
      return true;
    },
  }),
);

builder.mutationField('updateChannel', (t) =>
  t.field({
    type: Channel,
    description: 'Changes a channel of the key’s project; arguments left out keep their value',
    args: {
      id: t.arg.id({ required: true, description: CHANNEL_ID }),
      value: t.arg.string(),
      webhook: t.arg({ type: WebhookSpecInput }),
      config: t.arg({ type: ChannelConfigInput, description: 'Replaces the settings whole, as `value` does' }),
      name: t.arg.string(),
      notifyDown: t.arg.boolean(),
      notifyUp: t.arg.boolean(),
      disabled: t.arg.boolean({ description: 'A disabled channel is notified of nothing' }),
    },
    resolve: async (_root, args, ctx) => {
      const { access, code } = await channelArgument(ctx, args.id);
      const before = await channels.findChannel(ctx.deps.db, writableProject(access), code);
      const updated = await channels.updateChannelFor(ctx.deps, access, code, {
        value: args.value ?? undefined,
        webhook: spec(args.webhook),
        config: configFromArgument(args.config, before.kind),
        name: args.name ?? undefined,
        notifyDown: args.notifyDown ?? undefined,
        notifyUp: args.notifyUp ?? undefined,
        disabled: args.disabled ?? undefined,
      });
      // A new address waits for its own recipient; the same one is not asked again on every save.
      await askIfWaiting(consentMailDeps(ctx), updated, before.value, access.actor, ctx.deps.clock.now());
      return updated;
    },
  }),
);

builder.mutationField('deleteChannel', (t) =>
  t.id({
    description: 'Deletes a channel of the key’s project; returns the id it was given',
    args: { id: t.arg.id({ required: true, description: CHANNEL_ID }) },
    resolve: async (_root, args, ctx) => {
      const { access, code } = await channelArgument(ctx, args.id);
      await channels.deleteChannelFor(ctx.deps, access, code);
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
    args: { id: t.arg.id({ required: true, description: CHANNEL_ID }) },
    resolve: async (_root, args, ctx) => {
      const { access, code } = await channelArgument(ctx, args.id);
      const projectId = writableProject(access);
      const now = ctx.deps.clock.now();
      await refuseTooManyTests(ctx.deps.db, projectId, now);
      return testChannel(ctx.deps.db, ctx.deps.notifier, projectId, code, now);
    },
  }),
);

builder.mutationField('setNagPeriod', (t) =>
  t.boolean({
    description: 'Repeat alerts: while any check is down, remind its channels every `seconds` (60 to 2,592,000); null turns them off',
    args: { seconds: t.arg.int(), project: t.arg.id({ description: 'The project (signed-in people); a key\'s own when omitted' }) },
    resolve: async (_root, args, ctx) => {
      await setNagPeriod(ctx.deps.db, writableProject(await accessToProjectArg(ctx, args.project)), args.seconds ?? null);
      return true;
    },
  }),
);
