// What the notifier needs from the database. Claiming is atomic: a notification is taken by
// one worker (of any instance sharing the database) for a lease; outcomes are written only by
// the attempt that holds it (compare-and-set on the attempt number), so a worker whose lease
// ran out cannot overwrite a newer attempt's result.
import type { NewNotification } from './outbox.ts';
import type { AccountMailReason } from './prepared-mail.ts';

export interface ClaimedNotification extends Omit<NewNotification, 'nextAttemptAt' | 'channelId' | 'reason'> {
  id: number;
  /** The channel it goes to; null for account mail (reports and nags, see prepared-mail.ts). */
  channelId: number | null;
  /** Account mail: the account it goes to; null for a channel's notification. */
  personId: number | null;
  reason: NewNotification['reason'] | AccountMailReason;
  /** This attempt's number, 1-based. */
  attempt: number;
}

export interface AttemptOutcome {
  id: number;
  attempt: number;
  durationMs: number;
  at: Date;
}

export interface NotificationStore {
  /** Takes up to `limit` pending notifications due at `now`, leased until `leaseUntil`. */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedNotification[]>;
  /** Queues and claims in one step (channel tests, sent at once). */
  insertClaimed(n: NewNotification, leaseUntil: Date): Promise<ClaimedNotification>;
  insert(rows: NewNotification[]): Promise<void>;
  /**
   * Renews the lease as the attempt really starts; false when the row is no longer this
   * attempt's (another worker took it over after the lease ran out, or it was superseded).
   */
  startAttempt(id: number, attempt: number, leaseUntil: Date): Promise<boolean>;
  /** Gives claimed rows back untried (shutdown): the attempt does not count. */
  release(rows: Array<{ id: number; attempt: number }>, at: Date): Promise<void>;
  markSent(o: AttemptOutcome): Promise<boolean>;
  markRetry(o: AttemptOutcome, nextAttemptAt: Date, error: string): Promise<boolean>;
  markFailed(o: AttemptOutcome, error: string): Promise<boolean>;
  /** The earliest time a pending notification may be tried (leases included). */
  nextDueAt(): Promise<Date | null>;
  /** Pending notifications: how many, and when the oldest was created. */
  pendingStats(): Promise<{ count: number; oldest: Date | null }>;
}
