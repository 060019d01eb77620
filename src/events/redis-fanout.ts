// With REDIS_URL, the subscriber-facing topics travel through Redis pub/sub, so a subscriber on
// any instance sees every event once, whichever instance published it. The bus keeps the
// in-memory bus's surface (emit/on/off/listeners): domain code and subscriptions do not know.
// An instance delivers its own events when they come back from Redis, like everyone else's,
// so each subscriber gets them once and in publish order. monitorPass and inboundEmail stay
// in the instance (only its metrics want them).
//
// Redis is a convenience, never a dependency of a request: a publish never waits or throws.
// While Redis is away (at start or later) events are delivered in this instance only, the
// clients reconnect by themselves, and `fanoutUp` says so (/healthz, /metrics).
//
// Two ioredis connections and their public API only (publish, subscribe, 'message'): a
// publisher and a subscriber (a subscribed connection takes no other command).
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { MonitoringEvents, type GatewayEventMap, type RemoteOrigin } from './bus.ts';
import { taggedJson } from './tagged-json.ts';

export const FANNED_OUT_TOPICS = ['flip', 'checkChanged', 'ping', 'recordChanged', 'notification', 'accessChanged'] as const satisfies ReadonlyArray<keyof GatewayEventMap>;
type FannedOutTopic = (typeof FANNED_OUT_TOPICS)[number];

export const DEFAULT_NAMESPACE = 'gateway:events';

export interface RedisFanoutOptions {
  url: string;
  /** Channels are `<namespace>:<topic>` (tests give each run its own). */
  namespace?: string;
  /** Reconnect delays double from retryMinMs up to retryMaxMs. */
  retryMinMs?: number;
  retryMaxMs?: number;
  log?: Logger;
}

/** What one message carries. */
interface Envelope {
  /** The publishing instance. */
  o: string;
  /** The publisher already delivered it itself (it was not subscribed): it skips the echo. */
  d: boolean;
  /** The publisher's sequence number (it recognizes its own echoes by it). */
  n?: number;
  /** The payload. */
  p: unknown;
  /** An event committed with a write: its outbox row (outbox.ts). Each instance delivers an id once. */
  x?: number;
}

/** The outbox ids delivered lately: a relay may publish again what its publisher already had. */
class RecentIds {
  readonly #ids = new Set<number>();
  constructor(private readonly max: number) {}
  /** False when `id` was seen already. */
  add(id: number): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.#ids.size > this.max) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }
}

/**
 * How many outbox ids each instance remembers. A repeat comes within seconds (a relay takes rows
 * a few seconds old): 100,000 ids cover far more events than arrive in that time.
 */
const RECENT_IDS = 100_000;

export class RedisFanoutEvents extends MonitoringEvents {
  override readonly fansOut = true;
  readonly instanceId = randomUUID();
  readonly #delivered = new RecentIds(RECENT_IDS);
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #channels = new Map<string, string>();
  readonly #topics = new Map<string, FannedOutTopic>();
  readonly #log: Logger | undefined;
  /** Subscribed to every channel on the current connection. */
  #listening = false;
  #wasUp = false;
  #errorLogged = false;
  #closing = false;
  #sequence = 0;
  // When only the publisher's connection breaks, Redis may have taken a PUBLISH whose answer was
  // lost: its echo on the subscriber connection can come before or after the failure. Whichever
  // comes first delivers it, the other is skipped (by the publisher's sequence number).
  /** Own publishes not yet answered. */
  readonly #inFlight = new Set<number>();
  /** Own echoes delivered while their PUBLISH was still unanswered (emptied as each is answered). */
  readonly #echoedInFlight = new Set<number>();
  /** Own publishes that failed while subscribed, delivered here instead (no echo can come after the subscriber connection closes: emptied then). */
  readonly #deliveredInstead = new Set<number>();

  constructor(o: RedisFanoutOptions) {
    super();
    this.#log = o.log;
    const min = o.retryMinMs ?? 100;
    const max = o.retryMaxMs ?? 5000;
    const options: RedisOptions = {
      // A command with Redis away fails at once instead of waiting in a queue: a publish is
      // then delivered here, and requests never wait for Redis.
      enableOfflineQueue: false,
      // A command on a connection that closes fails at that close. With 1, ioredis keeps it
      // for a resend that autoResendUnfulfilledCommands: false then drops without settling
      // it: a publish cut off in flight was never delivered anywhere (issue #30).
      maxRetriesPerRequest: 0,
      // #listen subscribes again on every new connection (and knows when it is done); a
      // publish lost with its connection is delivered here (#publish), so resending it would repeat it.
      autoResubscribe: false,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(min * 2 ** Math.min(attempt - 1, 16), max),
    };
    this.#pub = new Redis(o.url, { ...options, connectionName: 'gateway-events-pub' });
    this.#sub = new Redis(o.url, { ...options, connectionName: 'gateway-events-sub' });
    for (const client of [this.#pub, this.#sub]) {
      client.on('error', (err: Error) => this.#onError(err));
      client.on('close', () => this.#changed());
    }
    this.#pub.on('ready', () => this.#changed());
    this.#sub.on('ready', () => this.#listen());
    this.#sub.on('close', () => {
      this.#listening = false;
      this.#deliveredInstead.clear();
      this.#changed();
    });
    this.#sub.on('message', (channel: string, message: string) => {
      const topic = this.#topics.get(channel);
      if (topic) this.#receive(topic, message === '' ? null : this.#parse(message));
    });
    const namespace = o.namespace ?? DEFAULT_NAMESPACE;
    for (const topic of FANNED_OUT_TOPICS) {
      const channel = `${namespace}:${topic}`;
      this.#channels.set(topic, channel);
      this.#topics.set(channel, topic);
    }
  }

  /** Events reach every instance: both connections are up and the channels subscribed. */
  get fanoutUp(): boolean {
    return this.#pub.status === 'ready' && this.#listening;
  }

  override emit<K extends keyof GatewayEventMap>(topic: K, ...args: GatewayEventMap[K]): boolean {
    const channel = this.#channels.get(topic);
    // Local-only topics, and every topic while Redis is away or after close: this instance only.
    if (channel === undefined || this.#pub.status !== 'ready') return this.#emitHere(topic, ...args);
    // Not subscribed (yet, or any more): the echo would not come back, so deliver it now.
    const deliverHere = !this.#listening;
    let message: string;
    const n = ++this.#sequence;
    try {
      message = taggedJson.stringify({ o: this.instanceId, d: deliverHere, n, p: args[0] } satisfies Envelope);
    } catch (err) {
      // A payload that cannot be serialized still reaches this instance's subscribers.
      this.#log?.error({ err, topic }, 'event could not be published to redis');
      return this.#emitHere(topic, ...args);
    }
    // Never awaited: a request does not wait for Redis, and #publish handles a failure itself.
    void this.#publish(channel, message, deliverHere ? null : n);
    return deliverHere ? this.#emitHere(topic, ...args) : true;
  }

  /**
   * Publishes an event committed with outbox row `id` (outbox.ts). True once Redis took it:
   * every instance delivers it (this one too, when it comes back). False when Redis could not:
   * this instance has delivered it, and the row stays for a relay to publish later. Each
   * instance delivers an id once, however often it is published.
   */
  override publishCommitted<K extends keyof GatewayEventMap>(topic: K, payload: GatewayEventMap[K][0], id: number): Promise<boolean> {
    const channel = this.#channels.get(topic);
    if (channel === undefined) throw new Error(`${topic} is not a fanned-out topic`);
    const here = () => {
      if (this.#delivered.add(id)) this.#deliver(topic as FannedOutTopic, payload);
    };
    if (this.#pub.status !== 'ready') {
      here();
      return Promise.resolve(false);
    }
    // Not subscribed: the echo would not come back, so deliver it now.
    if (!this.#listening) here();
    let message: string;
    try {
      message = taggedJson.stringify({ o: this.instanceId, d: false, x: id, p: payload } satisfies Envelope);
    } catch (err) {
      this.#log?.error({ err, topic }, 'event could not be published to redis');
      here();
      return Promise.resolve(false);
    }
    return this.#pub.publish(channel, message).then(
      () => true,
      (err: Error) => {
        this.#onError(err);
        here();
        return false;
      },
    );
  }

  /** Closes both connections; events after this are delivered in this instance only. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(
      [this.#pub, this.#sub].map((c) => (c.status === 'ready' ? c.quit().then(() => undefined, () => c.disconnect()) : c.disconnect())),
    );
  }

  /** EventEmitter's own emit: the listeners in this instance. */
  #emitHere(topic: keyof GatewayEventMap, ...args: unknown[]): boolean {
    return (super.emit as (topic: string, ...args: unknown[]) => boolean).call(this, topic, ...args);
  }

  /** `n`: the sequence number of a publish whose echo delivers it here (null: delivered already). */
  #publish(channel: string, message: string, n: number | null): Promise<void> {
    if (n !== null) this.#inFlight.add(n);
    return this.#pub.publish(channel, message).then(
      () => {
        if (n === null) return;
        this.#inFlight.delete(n);
        this.#echoedInFlight.delete(n);
      },
      (err: Error) => {
        // Not sent, or its answer lost with the connection: this instance's subscribers still get
        // it, once (unless its echo came already).
        this.#onError(err);
        if (n === null) return;
        this.#inFlight.delete(n);
        if (this.#echoedInFlight.delete(n)) return;
        const envelope = this.#parse(message);
        const topic = this.#topics.get(channel);
        if (!envelope || !topic) return;
        if (this.#listening) this.#deliveredInstead.add(n);
        this.#deliver(topic, envelope.p);
      },
    );
  }

  #receive(topic: FannedOutTopic, envelope: Envelope | null) {
    if (!envelope || typeof envelope.o !== 'string') return;
    if (typeof envelope.x === 'number') {
      if (!this.#delivered.add(envelope.x)) return;
      if (envelope.o === this.instanceId) this.#deliver(topic, envelope.p);
      else this.#deliver(topic, envelope.p, { remote: true, origin: envelope.o });
      return;
    }
    if (envelope.o === this.instanceId) {
      const n = envelope.n;
      if (envelope.d || (n !== undefined && this.#deliveredInstead.delete(n))) return;
      if (n !== undefined && this.#inFlight.has(n)) this.#echoedInFlight.add(n);
      this.#deliver(topic, envelope.p);
    } else {
      this.#deliver(topic, envelope.p, { remote: true, origin: envelope.o });
    }
  }

  #deliver(topic: FannedOutTopic, payload: unknown, origin?: RemoteOrigin) {
    try {
      if (origin) this.#emitHere(topic, payload, origin);
      else this.#emitHere(topic, payload);
    } catch (err) {
      // A throwing listener must not break the Redis client's reader (or a publish's callback).
      this.#log?.error({ err, topic }, 'event listener failed');
    }
  }

  #parse(text: string): Envelope | null {
    try {
      return taggedJson.parse(text) as Envelope;
    } catch (err) {
      this.#log?.warn({ err }, 'unreadable message on an event channel ignored');
      return null;
    }
  }

  #listen() {
    this.#sub.subscribe(...this.#channels.values()).then(
      () => {
        this.#listening = true;
        this.#changed();
      },
      // The connection went away again; the next 'ready' tries again.
      (err: Error) => this.#onError(err),
    );
  }

  #onError(err: Error) {
    if (this.#closing) return;
    // Reconnect attempts fail every few seconds while Redis is away: one warning an outage.
    if (this.#errorLogged) return this.#log?.debug({ err: err.message }, 'redis (event fan-out)');
    this.#errorLogged = true;
    this.#log?.warn({ err: err.message }, 'event fan-out degraded: redis unavailable; events reach this instance only');
  }

  #changed() {
    const up = this.fanoutUp;
    if (up === this.#wasUp || this.#closing) return;
    this.#wasUp = up;
    if (up) {
      this.#errorLogged = false;
      this.#log?.info('event fan-out up: events reach every instance through redis');
    } else if (!this.#errorLogged) {
      this.#errorLogged = true;
      this.#log?.warn('event fan-out degraded: redis connection lost; events reach this instance only');
    }
  }
}
