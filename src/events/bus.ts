// The gateway's event bus: domain events, published after the write that caused them has
// committed, exactly once. Transports (GraphQL subscriptions) listen; they never publish. One
// typed topic map; the in-memory bus below is the default, and with REDIS_URL a subclass with
// the same surface (redis-fanout.ts) carries the subscriber-facing topics between instances.
import { EventEmitter } from 'node:events';
import type { Check, Ping } from '../generated/prisma/client.ts';
import type { KindName } from '../campus/kinds.ts';

export interface FlipEvent {
  checkId: number;
  checkCode: string;
  projectId: string;
  oldStatus: string;
  newStatus: string;
  at: Date;
  reason: string;
}

export type CheckChange = 'created' | 'updated' | 'ping' | 'status' | 'paused' | 'resumed' | 'deleted';

export interface CheckChangedEvent {
  projectId: string;
  checkId: number;
  change: CheckChange;
  /** The check as stored right after the change (as it was, for deletes). */
  check: Check;
}

export interface PingEvent {
  projectId: string;
  checkId: number;
  ping: Ping;
}

export interface RecordChangedEvent {
  kind: KindName;
  action: 'created' | 'updated' | 'deleted';
  record: Record<string, unknown> & { ID: number };
}

/**
 * Someone's access changed: a session ended, a membership was removed or its role changed.
 * Open subscriptions of that person re-check what they may see (and end when nothing).
 */
export interface AccessChangedEvent {
  personId: number;
  /** The project whose membership changed; null: every project (a session ended, an account changed). */
  projectId: string | null;
  /** The session that ended; null when not about one session. */
  sessionId: number | null;
}

/** A notification attempt finished (after its outcome was stored). */
export interface NotificationEvent {
  projectId: string;
  channelId: number;
  /** The channel's kind. */
  kind: string;
  checkId: number | null;
  notificationId: number;
  code: string;
  reason: 'flip' | 'nag' | 'test';
  status: 'down' | 'up';
  /** sent; pending (will be retried); failed (given up). */
  state: 'sent' | 'pending' | 'failed';
  attempt: number;
  error: string;
  queuedAt: Date;
  at: Date;
}

/** An email arrived at the SMTP listener: accepted as a ping, or refused (for metrics). */
export interface InboundEmailEvent {
  outcome: 'accepted' | 'refused';
}

/** A monitor pass finished (for metrics). */
export interface MonitorPassEvent {
  wentDown: number;
  rescheduled: number;
  durationMs: number;
}

/**
 * Given as a second argument by a bus that carries events between instances (events-redis) for
 * events another instance published; absent for this instance's own. Listeners that count
 * (metrics) skip remote events, or N instances would each count every flip.
 */
export interface RemoteOrigin {
  remote: true;
  /** The publishing instance's id. */
  origin: string;
}

export const isRemote = (meta: RemoteOrigin | undefined): boolean => meta?.remote === true;

export interface GatewayEventMap {
  flip: [FlipEvent, RemoteOrigin?];
  monitorPass: [MonitorPassEvent];
  checkChanged: [CheckChangedEvent, RemoteOrigin?];
  ping: [PingEvent, RemoteOrigin?];
  recordChanged: [RecordChangedEvent, RemoteOrigin?];
  notification: [NotificationEvent, RemoteOrigin?];
  inboundEmail: [InboundEmailEvent];
  accessChanged: [AccessChangedEvent, RemoteOrigin?];
}

export class MonitoringEvents extends EventEmitter<GatewayEventMap> {
  /**
   * Events reach other instances (redis-fanout.ts): events committed with a write are then
   * kept in the outbox until they are out (outbox.ts). This bus has no other instance: false.
   */
  readonly fansOut: boolean = false;

  constructor() {
    super();
    // Many subscribers (one per live subscription) are expected.
    this.setMaxListeners(0);
  }

  /**
   * Publishes an event committed with outbox row `id`; true once every instance will get it.
   * This bus has only this instance: delivered here, and nothing is ever kept for it.
   */
  publishCommitted<K extends keyof GatewayEventMap>(topic: K, payload: GatewayEventMap[K][0], _id: number): Promise<boolean> {
    (this.emit as (topic: K, payload: unknown) => boolean)(topic, payload);
    return Promise.resolve(true);
  }
}

export type GatewayEvents = MonitoringEvents;

// The gateway's own listeners (monitor, notifier, metrics) are not subscribers: metrics count
// a topic's listeners without them.
const internal = new WeakSet<object>();

export function internalListener<F extends (...args: never[]) => unknown>(listener: F): F {
  internal.add(listener);
  return listener;
}

/** Listeners of `topic` that are live subscriptions (not the gateway's own). */
export function subscriberCount(bus: GatewayEvents, topic: keyof GatewayEventMap): number {
  return bus.listeners(topic).filter((l) => !internal.has(l)).length;
}

/**
 * Wake-ups of waiting subscribers, run a slice at a time. Resolving all of them at once would
 * run every subscriber's GraphQL execution and send in one turn of the event loop (for 10,000
 * subscribers, close to a second): nothing would go out until all were done, every delivery's
 * garbage would be alive at once, and HTTP requests would wait behind them. A slice per turn
 * sends the first events within milliseconds and lets other work in between.
 */
const WAKE_SLICE = 256;
const wakeups: Array<() => void> = [];
let draining = false;

export function wakeSoon(wake: () => void) {
  wakeups.push(wake);
  if (draining) return;
  draining = true;
  setImmediate(drainWakeups);
}

function drainWakeups() {
  for (const wake of wakeups.splice(0, WAKE_SLICE)) wake();
  if (wakeups.length) setImmediate(drainWakeups);
  else draining = false;
}

/**
 * An async iterator over one topic for one subscriber. The buffer is bounded: a consumer that
 * falls behind loses its oldest events instead of holding up the publisher or other
 * subscribers. `return()` (unsubscribe, socket closed) removes the listener at once.
 */
export function subscribe<K extends keyof GatewayEventMap>(
  bus: GatewayEvents,
  topic: K,
  accept: (...args: GatewayEventMap[K]) => boolean,
  bufferSize = 256,
): AsyncIterableIterator<GatewayEventMap[K][0]> & { dropped(): number } {
  const queue: Array<GatewayEventMap[K][0]> = [];
  let waiting: ((r: IteratorResult<GatewayEventMap[K][0]>) => void) | null = null;
  let wakeScheduled = false;
  let done = false;
  let dropped = 0;
  const wake = () => {
    wakeScheduled = false;
    if (done || !waiting || !queue.length) return;
    const resolve = waiting;
    waiting = null;
    resolve({ value: queue.shift()!, done: false });
  };
  const listener = ((...args: GatewayEventMap[K]) => {
    if (done || !accept(...args)) return;
    if (queue.length >= bufferSize) {
      queue.shift();
      dropped++;
    }
    queue.push(args[0]);
    if (waiting && !wakeScheduled) {
      wakeScheduled = true;
      wakeSoon(wake);
    }
  }) as Parameters<GatewayEvents['on']>[1];
  bus.on(topic, listener as never);
  const finish = () => {
    if (done) return;
    done = true;
    bus.off(topic, listener as never);
    queue.length = 0;
    waiting?.({ value: undefined, done: true });
    waiting = null;
  };
  return {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (waiting = resolve));
    },
    return() {
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err?: unknown) {
      finish();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
    dropped: () => dropped,
  };
}
