// The Notification type: one message to one channel, with how its delivery went.
import { builder } from '../builder.ts';
import { inProjects, writableProjects } from './project-access.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';

export const NotificationState = builder.enumType('NotificationState', {
  description: 'PENDING: queued or waiting for a retry; SENT: delivered; FAILED: given up (see error)',
  values: { PENDING: { value: 'pending' }, SENT: { value: 'sent' }, FAILED: { value: 'failed' } } as const,
});
export const NotificationReason = builder.enumType('NotificationReason', {
  description: 'FLIP: a check went down or up; NAG: a repeat alert while a check is down; TEST: a channel test',
  values: { FLIP: { value: 'flip' }, NAG: { value: 'nag' }, TEST: { value: 'test' } } as const,
});
export const AlertStatus = builder.enumType('AlertStatus', {
  values: { DOWN: { value: 'down' }, UP: { value: 'up' } } as const,
});

export const Notification = builder.prismaNode('Notification', {
  id: nodeId((n: { id: number }) => n.id, intKey),
  // As Check.notifications and Channel.notifications: read-write keys of the channel's project.
  findUnique: async (id, ctx) => ({ id: asInt(id), channel: { projectId: inProjects(await writableProjects(ctx)) } }),
  nullable: true,
  fields: (t) => ({
    uuid: t.exposeID('code', { description: 'Stable across attempts; sent as Idempotency-Key (HTTP) and in the Message-ID (email)' }),
    reason: t.field({ type: NotificationReason, resolve: (n) => n.reason as 'flip' | 'nag' | 'test' }),
    status: t.field({ type: AlertStatus, description: 'The status announced', resolve: (n) => n.status as 'down' | 'up' }),
    state: t.field({ type: NotificationState, resolve: (n) => n.state as 'pending' | 'sent' | 'failed' }),
    attempts: t.exposeInt('attempts'),
    error: t.exposeString('lastError', { description: 'The last attempt’s error; empty after a success' }),
    eventAt: t.expose('eventAt', { type: 'DateTime', description: 'When the flip (or reminder, or test) happened' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was queued' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true, description: 'When the last attempt ended' }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'While pending: the earliest next attempt',
      resolve: (n) => (n.state === 'pending' ? n.nextAttemptAt : null),
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true, description: 'How long the last attempt took' }),
    // Every notification reachable here has a channel: account mail (reports, nags) has none,
    // and is reached through no channel, check or project.
    channel: t.relation('channel', { onNull: 'error' }),
    check: t.relation('check', { nullable: true, description: 'Null for a channel test' }),
  }),
});

/** Newest first; at most this many per list. */
export const NOTIFICATIONS_MAX = 100;

/**
 * The relation's selection, planned with the parent row. A `first` out of range is refused by
 * the field's resolver (at the field's path); the plan only keeps `take` within range meanwhile.
 */
export function notificationsSelection(first: number | null | undefined, nested: (s: true) => unknown) {
  const take = Math.min(Math.max(first ?? 20, 0), NOTIFICATIONS_MAX);
  const selection = nested(true);
  return { ...(typeof selection === 'object' && selection ? selection : {}), orderBy: { id: 'desc' as const }, take };
}
