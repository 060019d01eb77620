// What every kind's transport gets: the notification, its channel, the check it is about and
// lazy access to what only some messages need (the last ping, the project's other down checks).
import type { Channel, Check, Ping } from '../../../../generated/prisma/client.ts';
import type { NotifySettings } from '../../../notifications/settings.ts';

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
  /** The check as the Management API (v3, read-write key) returns it. */
  checkJson(): Record<string, unknown>;
  settings: NotifySettings;
}

export class DeliveryError extends Error {
  /** A permanent error is not retried (the configuration must change first). */
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface Transport {
  send(delivery: Delivery): Promise<void>;
  /** Releases what the transport holds across deliveries (pooled connections), at shutdown. */
  close?(settings: NotifySettings): void;
}
