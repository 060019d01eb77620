// The outbox: a flip that Healthchecks would notify becomes one Notification row per assigned,
// enabled channel that takes that status (a group: one per member, recipients.ts), written in
// the same transaction as the flip, so a committed flip always has its notifications and a
// rolled-back one has none.
import { randomUUID } from 'node:crypto';
import { channelTakes, recipients, type ChannelTarget } from './recipients.ts';
import type { EventRow } from '../../events/outbox.ts';

export { channelTakes, type ChannelTarget };

export interface NewNotification {
  code: string;
  channelId: number;
  checkId: number | null;
  flipId: number | null;
  reason: 'flip' | 'nag' | 'test';
  status: 'down' | 'up';
  eventAt: Date;
  nextAttemptAt: Date;
  createdAt: Date;
}

/**
 * A value now (SQLite: better-sqlite3 is synchronous) or later (PostgreSQL). The hot paths are
 * written once over this: on SQLite they run without a single await (no tick per statement, the
 * whole transaction inside one synchronous call), on PostgreSQL as a chain of round trips.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is not a promise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** What the flip's notifications are: computed from the flips and the channels, then written. */
export interface OutboxPlan {
  /**
   * Pending notifications to give up, per (channel, check): those that already failed at least
   * once (they wait for a retry), so a newer alert is not overtaken by an older one. A row this
   * plan inserts has no attempt yet, so superseding before or after inserting is the same.
   */
  supersede: Array<{ channelId: number; checkId: number }>;
  error: string;
  rows: NewNotification[];
}

/** What queueing needs inside the flips' transaction (one implementation per database). */
export interface OutboxTx {
  /** The channels assigned to each of the checks, a group's with its members (recipients.ts toTargets). */
  channelsOf(checkIds: number[]): MaybePromise<Map<number, ChannelTarget[]>>;
  /** Writes the plan (supersedes, then inserts) in the flips' transaction. */
  queueNotifications(plan: OutboxPlan): MaybePromise<void>;
  /** Writes events' outbox rows (events/outbox.ts) in the transaction; their ids, in order. */
  insertEvents(rows: EventRow[]): MaybePromise<number[]>;
}

export const SUPERSEDED = 'Superseded by a later alert about this check';

/**
 * Healthchecks' Flip.select_channels: nothing for new → up or paused → up (a first ping or a
 * resume is not news), nothing for pauses; otherwise down, and down → up.
 */
export function flipNotifies(oldStatus: string, newStatus: string): newStatus is 'down' | 'up' {
  if (newStatus === 'down') return oldStatus !== 'down';
  if (newStatus === 'up') return oldStatus === 'down';
  return false;
}

export interface FlipToNotify {
  checkId: number;
  flipId: number;
  oldStatus: string;
  newStatus: string;
  at: Date;
  /** When its notifications may first be sent (and are recorded as queued). */
  sendAt: Date;
}

/** Which channels hear of which flips, and the rows that says; pure. */
export function planFlipNotifications(flips: FlipToNotify[], channels: Map<number, ChannelTarget[]>): OutboxPlan {
  const plan: OutboxPlan = { supersede: [], error: SUPERSEDED, rows: [] };
  const superseded = new Set<string>();
  for (const flip of flips) {
    const status = flip.newStatus;
    if (!flipNotifies(flip.oldStatus, status)) continue;
    for (const channel of recipients(channels.get(flip.checkId) ?? [], status)) {
      const pair = `${channel.id}:${flip.checkId}`;
      if (!superseded.has(pair)) {
        superseded.add(pair);
        plan.supersede.push({ channelId: channel.id, checkId: flip.checkId });
      }
      plan.rows.push({
        code: randomUUID(),
        channelId: channel.id,
        checkId: flip.checkId,
        flipId: flip.flipId,
        reason: 'flip',
        status,
        eventAt: flip.at,
        nextAttemptAt: flip.sendAt,
        createdAt: flip.sendAt,
      });
    }
  }
  return plan;
}

/**
 * Queues the flips' notifications in the flips' transaction; returns how many. Reads channels
 * only when some flip notifies (most flips are a first ping's new → up).
 */
export function queueFlipNotifications(tx: OutboxTx, flips: FlipToNotify[]): MaybePromise<number> {
  const notifying = flips.filter((f) => flipNotifies(f.oldStatus, f.newStatus));
  if (notifying.length === 0) return 0;
  return andThen(tx.channelsOf([...new Set(notifying.map((f) => f.checkId))]), (channels) => {
    const plan = planFlipNotifications(notifying, channels);
    if (plan.rows.length === 0) return 0;
    return andThen(tx.queueNotifications(plan), () => plan.rows.length);
  });
}
