// Live subscriptions: each root field listens to one domain topic through a bounded,
// per-subscriber iterator, filtered to what the caller may see. Events are published by the
// domain after commit; nothing here publishes.
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { subscribe, type CheckChangedEvent, type FlipEvent, type NotificationEvent, type PingEvent, type RecordChangedEvent } from '../../events/bus.ts';
import { getCheck } from '../../monitoring/checks/service.ts';
import { writableProject } from '../../monitoring/access.ts';
import { accessToProjectArg, checkArgument } from './monitoring/project-access.ts';
import { unlessEnded, whileAccessLasts } from './access-guard.ts';
import { Check, CHECK_ID } from './monitoring/check.ts';
import type { Check as CheckRow } from '../../generated/prisma/client.ts';
import { Ping } from './monitoring/ping.ts';
import { AlertStatus, Notification, NotificationReason, NotificationState } from './monitoring/notification.ts';
import { campusRefs } from './campus/records.ts';
import { KINDS, KIND_LIST, type KindName } from '../../campus/kinds.ts';
import { requireReadable } from '../../campus/access.ts';

builder.subscriptionType({});

/** The check a subscription is about, after checking it is the caller's. */
async function watchedCheck(ctx: GraphQLContext, checkId: string | number | null | undefined, project: string | number | null | undefined) {
  if (checkId === null || checkId === undefined) {
    const access = await accessToProjectArg(ctx, project);
    return { access, projectId: access.projectId, checkDbId: null as number | null };
  }
  const { access, code } = await checkArgument(ctx, checkId);
  const check = await getCheck(ctx.deps, access, code);
  return { access, projectId: access.projectId, checkDbId: check.id };
}

const projectArg = { description: 'The project (signed-in people, without checkId); a key\'s own when omitted' };

/** One read of a flip's check, shared by every subscriber the flip is delivered to. */
const checkOfFlip = new WeakMap<FlipEvent, Promise<CheckRow | null>>();

const FlipEventRef = builder.objectRef<FlipEvent>('FlipEvent').implement({
  description: 'A status change of a check, pushed when it is recorded',
  fields: (t) => ({
    timestamp: t.field({ type: 'DateTime', resolve: (f) => f.at }),
    up: t.boolean({ resolve: (f) => f.newStatus === 'up' }),
    oldStatus: t.exposeString('oldStatus'),
    newStatus: t.exposeString('newStatus'),
    reason: t.exposeString('reason'),
    check: t.field({
      type: Check,
      nullable: true,
      resolve: (f, _a, ctx) => {
        let check = checkOfFlip.get(f);
        if (!check) checkOfFlip.set(f, (check = ctx.deps.db.check.findUnique({ where: { id: f.checkId } })));
        return check;
      },
    }),
  }),
});

const CheckChangeKind = builder.enumType('CheckChangeKind', {
  values: ['created', 'updated', 'ping', 'status', 'paused', 'resumed', 'deleted'].map((v) => v.toUpperCase()) as [
    'CREATED', 'UPDATED', 'PING', 'STATUS', 'PAUSED', 'RESUMED', 'DELETED',
  ],
});

export const CheckChangedRef = builder.objectRef<CheckChangedEvent>('CheckChange').implement({
  fields: (t) => ({
    change: t.field({ type: CheckChangeKind, resolve: (e) => e.change.toUpperCase() as 'PING' }),
    check: t.field({ type: Check, description: 'The check right after the change (as it was, for DELETED)', resolve: (e) => e.check }),
  }),
});

const RecordAction = builder.enumType('RecordAction', { values: ['CREATED', 'UPDATED', 'DELETED'] as const });
export const CampusKind = builder.enumType('CampusKind', { values: KIND_LIST.map((k) => k.name) as [KindName, ...KindName[]] });
export const CampusRecord = builder.unionType('CampusRecord', {
  types: KIND_LIST.map((k) => campusRefs[k.name]) as never,
  resolveType: (record: { __kind?: KindName }) => record.__kind as never,
});

const RecordChangedRef = builder.objectRef<RecordChangedEvent>('RecordChange').implement({
  fields: (t) => ({
    kind: t.field({ type: CampusKind, resolve: (e) => e.kind }),
    action: t.field({ type: RecordAction, resolve: (e) => e.action.toUpperCase() as 'CREATED' }),
    id: t.int({ resolve: (e) => e.record.ID }),
    record: t.field({ type: CampusRecord, resolve: (e) => ({ ...e.record, __kind: e.kind }) as never }),
  }),
});

const NotificationOutcomeRef = builder.objectRef<NotificationEvent>('NotificationOutcome').implement({
  description: 'One delivery attempt has finished',
  fields: (t) => ({
    state: t.field({ type: NotificationState, description: 'PENDING here means: failed, will be retried', resolve: (e) => e.state }),
    attempt: t.exposeInt('attempt'),
    error: t.exposeString('error'),
    reason: t.field({ type: NotificationReason, resolve: (e) => e.reason }),
    status: t.field({ type: AlertStatus, resolve: (e) => e.status }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    notification: t.prismaField({
      type: Notification,
      nullable: true,
      description: 'The notification as stored now (null if its channel was deleted since)',
      resolve: (query, e, _a, ctx) => ctx.deps.db.notification.findUnique({ ...query, where: { id: e.notificationId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  flips: t.field({
    type: FlipEventRef,
    description: "Every flip of the key's project, or of one check",
    args: { checkId: t.arg.id({ description: CHECK_ID }), project: t.arg.id(projectArg) },
    subscribe: async (_r, args, ctx) => {
      const { projectId, checkDbId } = await watchedCheck(ctx, args.checkId, args.project);
      return whileAccessLasts(ctx, subscribe(ctx.deps.events, 'flip', (f) => f.projectId === projectId && (checkDbId === null || f.checkId === checkDbId)), { projectId });
    },
    resolve: unlessEnded((f: FlipEvent) => f),
  }),
  checkChanged: t.field({
    type: CheckChangedRef,
    description: 'A check’s new state after a ping, a status change, a pause, resume, update or delete',
    args: { checkId: t.arg.id({ description: CHECK_ID }), project: t.arg.id(projectArg) },
    subscribe: async (_r, args, ctx) => {
      const { projectId, checkDbId } = await watchedCheck(ctx, args.checkId, args.project);
      return whileAccessLasts(ctx, subscribe(ctx.deps.events, 'checkChanged', (e) => e.projectId === projectId && (checkDbId === null || e.checkId === checkDbId)), { projectId });
    },
    resolve: unlessEnded((e: CheckChangedEvent) => e),
  }),
  pings: t.field({
    type: Ping,
    description: 'Pings of one check as they arrive (read-write keys)',
    args: { checkId: t.arg.id({ required: true, description: CHECK_ID }) },
    subscribe: async (_r, args, ctx) => {
      const { access, projectId, checkDbId } = await watchedCheck(ctx, args.checkId, null);
      writableProject(access);
      return whileAccessLasts(ctx, subscribe(ctx.deps.events, 'ping', (p: PingEvent) => p.checkId === checkDbId), { projectId, needsWrite: true });
    },
    resolve: unlessEnded((p: PingEvent) => p.ping),
  }),
  notificationOutcomes: t.field({
    type: NotificationOutcomeRef,
    description: 'Each delivery attempt’s outcome for the key’s project, or one check (read-write keys)',
    args: { checkId: t.arg.id({ description: CHECK_ID }), project: t.arg.id(projectArg) },
    subscribe: async (_r, args, ctx) => {
      const { access, projectId, checkDbId } = await watchedCheck(ctx, args.checkId, args.project);
      writableProject(access);
      return whileAccessLasts(ctx, subscribe(ctx.deps.events, 'notification', (e) => e.projectId === projectId && (checkDbId === null || e.checkId === checkDbId)), { projectId, needsWrite: true });
    },
    resolve: unlessEnded((e: NotificationEvent) => e),
  }),
  recordChanged: t.field({
    type: RecordChangedRef,
    description: 'Campus records created, updated or deleted, as far as the caller may read them',
    args: { kind: t.arg({ type: CampusKind }) },
    subscribe: async (_r, args, ctx) => {
      const viewer = await ctx.viewer();
      return whileAccessLasts(ctx, subscribe(ctx.deps.events, 'recordChanged', (e) => {
        if (args.kind && e.kind !== args.kind) return false;
        try {
          requireReadable(KINDS[e.kind], viewer, e.record, ctx.deps.clock.now());
          return true;
        } catch {
          return false;
        }
      }), { projectId: null });
    },
    resolve: unlessEnded((e: RecordChangedEvent) => e),
  }),
}));
