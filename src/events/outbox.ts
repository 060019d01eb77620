// No event lost between commit and publish (issue #30). With several instances (REDIS_URL),
// an event committed with a write is also written to the EventOutbox table in that write's
// transaction. After the commit it is published at once (the fast path) and its row deleted
// once Redis has it. If the instance dies in between, or Redis cannot take it, the row stays:
// the relay of every instance publishes rows older than a few seconds, in commit order. Each
// instance delivers an outbox id once (redis-fanout.ts), so a relay repeating what its
// publisher already sent changes nothing. With one instance there is nobody else to tell:
// nothing is written, and events go out as before.
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Clock } from '../shared/clock.ts';
import { faultPoint } from '../shared/fault-points.ts';
import type { GatewayEventMap, GatewayEvents } from './bus.ts';
import { FANNED_OUT_TOPICS } from './redis-fanout.ts';
import { taggedJson } from './tagged-json.ts';

export type DurableTopic = (typeof FANNED_OUT_TOPICS)[number];
type OutboxClient = Pick<Db, 'eventOutbox'>;

/** An outbox row as a store writes it (the raw-SQL hot paths: monitor pages, ping batches). */
export interface EventRow {
  topic: DurableTopic;
  payload: string;
  createdAt: Date;
}

/** A value now (SQLite's synchronous transactions) or later (notifications/outbox.ts MaybePromise). */
type MaybePromise<T> = T | Promise<T>;

interface Held {
  topic: DurableTopic;
  payload: unknown;
  /** Its outbox row, once recorded; null where nothing is kept (one instance). */
  id: number | null;
}

/** The events of one write transaction: recorded in it, published after it commits. */
export class TransactionEvents {
  readonly #held: Held[] = [];

  constructor(
    private readonly bus: GatewayEvents,
    private readonly clock: Clock,
  ) {}

  add<K extends DurableTopic>(topic: K, payload: GatewayEventMap[K][0]): void {
    this.#held.push({ topic, payload, id: null });
  }

  /** How many events are held (a savepoint rolled back drops those after it: `truncate`). */
  get size(): number {
    return this.#held.length;
  }

  truncate(size: number): void {
    this.#held.length = size;
  }

  /** Inside the transaction, after its last write: the events commit with it (where they fan out). */
  async record(tx: OutboxClient): Promise<void> {
    await this.recordWith(async (rows) => {
      const ids: number[] = [];
      for (const data of rows) ids.push((await tx.eventOutbox.create({ data, select: { id: true } })).id);
      return ids;
    });
  }

  /** As record, through a store's own statement (`insert` returns the rows' ids in order); synchronous where `insert` is. */
  recordWith(insert: (rows: EventRow[]) => MaybePromise<number[]>): MaybePromise<void> {
    if (!this.bus.fansOut) return;
    const unrecorded = this.#held.filter((e) => e.id === null);
    if (!unrecorded.length) return;
    const createdAt = this.clock.now();
    const ids = insert(unrecorded.map((e) => ({ topic: e.topic, payload: taggedJson.stringify(e.payload), createdAt })));
    const keep = (list: number[]) => {
      for (const [i, e] of unrecorded.entries()) e.id = list[i]!;
    };
    return ids instanceof Promise ? ids.then(keep) : keep(ids);
  }

  /** After the commit: every event, once; rows Redis has taken are deleted (the relay sends the rest). */
  publish(db: OutboxClient, log?: Logger): void {
    if (!this.#held.length) return;
    faultPoint('after-commit');
    const sent: number[] = [];
    const settled: Array<Promise<void>> = [];
    for (const e of this.#held) {
      const emit = this.bus.emit as (topic: DurableTopic, payload: unknown) => boolean;
      if (e.id === null) {
        emit.call(this.bus, e.topic, e.payload);
        continue;
      }
      const id = e.id;
      settled.push(this.bus.publishCommitted(e.topic, e.payload as never, id).then((ok) => void (ok && sent.push(id))));
    }
    if (!settled.length) return;
    void Promise.all(settled)
      .then(() => (sent.length ? db.eventOutbox.deleteMany({ where: { id: { in: sent } } }) : undefined))
      // The relay deletes it later (after publishing it again: every instance drops the repeat).
      .catch((err: unknown) => log?.warn({ err }, 'published events could not be removed from the outbox'));
  }
}

/** `work` in one transaction whose events (added to `events`) commit with it, published after it. */
export async function committing<T, E extends TransactionEvents>(db: Db, events: E, work: (tx: Prisma.TransactionClient, events: E) => Promise<T>, log?: Logger): Promise<T> {
  const result = await db.$transaction(async (tx) => {
    const out = await work(tx, events);
    await events.record(tx);
    return out;
  });
  events.publish(db, log);
  return result;
}

const isDurableTopic = (topic: string): topic is DurableTopic => (FANNED_OUT_TOPICS as readonly string[]).includes(topic);

export interface OutboxRelayOptions {
  /** Rows younger than this are their publisher's (its fast path is still under way). */
  graceMs?: number;
  /** Rows older than this are dropped unsent, with a warning: replaying them would show subscribers a past long gone. */
  maxAgeMs?: number;
  batch?: number;
}

/** Publishes what instances committed and did not get out (they died, or Redis was away). */
export class OutboxRelay {
  readonly #graceMs: number;
  readonly #maxAgeMs: number;
  readonly #batch: number;

  constructor(
    private readonly db: OutboxClient,
    private readonly bus: GatewayEvents,
    private readonly clock: Clock,
    private readonly log?: Logger,
    o: OutboxRelayOptions = {},
  ) {
    this.#graceMs = o.graceMs ?? 3_000;
    this.#maxAgeMs = o.maxAgeMs ?? 10 * 60_000;
    this.#batch = o.batch ?? 200;
  }

  /** One round: returns how many rows went out (or were dropped). */
  async runOnce(): Promise<number> {
    const now = this.clock.now().getTime();
    const rows = await this.db.eventOutbox.findMany({ where: { createdAt: { lt: new Date(now - this.#graceMs) } }, orderBy: { id: 'asc' }, take: this.#batch });
    const done: number[] = [];
    let dropped = 0;
    for (const row of rows) {
      const payload = this.#readable(row);
      if (payload === undefined || row.createdAt.getTime() < now - this.#maxAgeMs) {
        dropped++;
        done.push(row.id);
        continue;
      }
      // Redis away: the rest waits for the next round, in order.
      if (!(await this.bus.publishCommitted(row.topic as DurableTopic, payload as never, row.id))) break;
      done.push(row.id);
    }
    if (dropped) this.log?.warn({ dropped }, 'outbox events too old (or unreadable) to replay were dropped');
    if (done.length) await this.db.eventOutbox.deleteMany({ where: { id: { in: done } } });
    return done.length;
  }

  /** Runs a round every `intervalMs` until stopped (a round still running skips the tick); a failed round (database away) is retried. */
  start(intervalMs = 1_000): () => Promise<void> {
    let round: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (round) return;
      round = this.runOnce()
        .then(() => undefined, (err: unknown) => void this.log?.warn({ err }, 'outbox relay round failed; retrying'))
        .finally(() => (round = null));
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await round;
    };
  }

  #readable(row: { id: number; topic: string; payload: string }): unknown {
    if (!isDurableTopic(row.topic)) return undefined;
    try {
      return taggedJson.parse(row.payload);
    } catch {
      return undefined;
    }
  }
}
