// The outbox: a flip that Healthchecks would notify becomes one Notification row per assigned,
// enabled channel that takes that status, written in the same transaction as the flip, so a
// committed flip always has its notifications and a rolled-back one has none.
import { randomUUID } from 'node:crypto';

export interface ChannelTarget {
  id: number;
  disabled: boolean;
  notifyDown: boolean;
  notifyUp: boolean;
}

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

/** What queueing needs inside the flip's transaction (one implementation per database). */
export interface OutboxTx {
  /** The channels assigned to the check. */
  channelsOf(checkId: number): ChannelTarget[];
  insertNotification(n: NewNotification): void;
  /**
   * Gives up the pending notifications to the channel about the check that have already failed
   * at least once (they wait for a retry), so a newer alert is not overtaken by an older one.
   */
  supersedeRetries(channelId: number, checkId: number, error: string): void;
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

/** A channel takes a status unless disabled or configured not to (e.g. a webhook without an up URL). */
export function channelTakes(channel: ChannelTarget, status: 'down' | 'up'): boolean {
  return !channel.disabled && (status === 'down' ? channel.notifyDown : channel.notifyUp);
}

export interface FlipToNotify {
  checkId: number;
  flipId: number;
  oldStatus: string;
  newStatus: string;
  at: Date;
}

/** Queues the flip's notifications; returns how many. `now` is when they may first be sent. */
export function queueFlipNotifications(tx: OutboxTx, flip: FlipToNotify, now: Date): number {
  const status = flip.newStatus;
  if (!flipNotifies(flip.oldStatus, status)) return 0;
  let queued = 0;
  for (const channel of tx.channelsOf(flip.checkId)) {
    if (!channelTakes(channel, status)) continue;
    tx.supersedeRetries(channel.id, flip.checkId, SUPERSEDED);
    tx.insertNotification({
      code: randomUUID(),
      channelId: channel.id,
      checkId: flip.checkId,
      flipId: flip.flipId,
      reason: 'flip',
      status,
      eventAt: flip.at,
      nextAttemptAt: now,
      createdAt: now,
    });
    queued++;
  }
  return queued;
}
