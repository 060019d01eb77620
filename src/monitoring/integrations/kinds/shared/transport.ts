// What every kind's transport gets: the notification, its channel, the check it is about and
// lazy access to what only some messages need (the last ping, the project's other down checks).
import type { Channel, Check, Ping } from '../../../../generated/prisma/client.ts';
import type { NotifySettings } from '../../../notifications/settings.ts';
import type { LimitedService, PhoneQuota } from '../../../notifications/phone-limits.ts';

export interface AlertCheck extends Check {
  project: { name: string };
}

export interface Delivery {
  /** Stable across attempts: receivers drop duplicates by it. */
  id: string;
  reason: 'flip' | 'nag' | 'test';
  status: 'down' | 'up';
  /** When the flip happened (reminders and tests: when they were made). */
  at: Date;
  /** The flip announced (null for reminders and tests). */
  flip: { oldStatus: string; newStatus: string; reason: string } | null;
  channel: Channel;
  check: AlertCheck;
  /** The last ping at or before the event; null when none. */
  lastPing(): Promise<Ping | null>;
  /** The project's other checks that are down, by name; null when the project has no other checks. */
  otherDownChecks(): Promise<Check[] | null>;
  /** An up alert's: when the check went down (the flip before, if it was to down); null otherwise. */
  downSince(): Promise<Date | null>;
  /** The check as the Management API (v3, read-write key) returns it. */
  checkJson(): Record<string, unknown>;
  /** The link that unsubscribes this channel's recipient (integrations/consent.ts): email alerts carry it. */
  unsubscribeUrl(): Promise<string>;
  /**
   * Counts the message against the project owner's monthly SMS or call quota (Healthchecks'
   * authorize_sms/authorize_call); false: over the limit, do not send.
   */
  authorizePhoneMessage(quota: PhoneQuota, notice: { service: LimitedService; message: string }): Promise<boolean>;
  settings: NotifySettings;
}

export class DeliveryError extends Error {
  /** A permanent error is not retried (the configuration must change first). */
  constructor(
    message: string,
    readonly permanent = false,
    /** The receiver's Retry-After (429, 503): the next attempt waits at least this long. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface Transport {
  send(delivery: Delivery): Promise<void>;
  /** Releases what the transport holds across deliveries (pooled connections), at shutdown. */
  close?(settings: NotifySettings): void;
}
