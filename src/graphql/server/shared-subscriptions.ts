// WebSocket subscribers that send the same credentials, document and variables would get the
// very same results, so they share one subscription: each event is executed once and the one
// result goes to every one of them. With 10,000 dashboards watching one project's flips this
// saves 9,999 GraphQL executions per flip and the per-subscriber iterator stacks of graphql-js,
// envelop and graphql-ws. Each subscriber keeps its own bounded buffer, as in events.ts.
//
// A subscriber whose transport can take bytes (ws.ts, `Sink.sendDirectly`) gets each result as
// the JSON its `next` message carries, serialized and UTF-8-encoded once per event for all of
// them, and sent from here, a slice of subscribers per turn of the event loop: graphql-ws would
// stringify the same result once per subscriber, and await a promise chain per subscriber per
// event.
import type { ExecutionResult } from 'graphql';
import { wakeSoon } from '../../events/bus.ts';

type Source = AsyncIterable<ExecutionResult>;
type Started = Source | ExecutionResult;

const BUFFER = 256;

/**
 * A subscription field's extension: its results are whole states ("the status page now"), not
 * events, so a subscriber who joins a shared one late is given the latest result at once.
 */
export const REPLAYS_LATEST = 'sharedReplaysLatest';
/** Direct subscribers sent to per turn of the event loop, so requests keep being answered meanwhile. */
const SEND_SLICE = 256;

/** The `payload` of a result's `next` message, as UTF-8 JSON (the same for every subscriber; never modified). */
export type SerializeResult = (result: ExecutionResult) => Buffer;
/** Sends one `next` message with this payload (the transport may drop it for a subscriber too far behind). */
export type SendPayload = (payload: Buffer) => void;

const toJsonBytes: SerializeResult = (result) => Buffer.from(JSON.stringify(result));

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function isStream(value: Started): value is Source {
  return typeof (value as Source)[Symbol.asyncIterator] === 'function';
}

export class Sink implements AsyncIterableIterator<ExecutionResult> {
  #queue: ExecutionResult[] = [];
  #waiting: ((r: IteratorResult<ExecutionResult>) => void) | null = null;
  #wakeScheduled = false;
  #done = false;
  #send: SendPayload | null = null;

  constructor(
    private leave: (sink: Sink) => void,
    private serialize: SerializeResult,
  ) {}

  /**
   * From now on results go to `send` as their payload, not through `next()` (which then
   * only reports the end); what is already queued goes first, in order.
   */
  sendDirectly(send: SendPayload) {
    for (const result of this.#queue.splice(0)) send(this.serialize(result));
    this.#send = send;
  }

  get direct(): boolean {
    return this.#send !== null;
  }

  /** A result for this subscriber; `payload` is its serialization, when already made. */
  push(result: ExecutionResult, payload?: Buffer) {
    if (this.#done) return;
    if (this.#send) {
      this.#send(payload ?? this.serialize(result));
      return;
    }
    if (this.#queue.length >= BUFFER) this.#queue.shift();
    this.#queue.push(result);
    if (this.#waiting && !this.#wakeScheduled) {
      this.#wakeScheduled = true;
      wakeSoon(this.#wake);
    }
  }

  #wake = () => {
    this.#wakeScheduled = false;
    if (!this.#waiting || !this.#queue.length) return;
    const resolve = this.#waiting;
    this.#waiting = null;
    resolve({ value: this.#queue.shift()!, done: false });
  };

  /** The shared source ended: finish once the buffer is read. */
  end() {
    this.#done = true;
    if (this.#waiting && !this.#queue.length) {
      this.#waiting({ value: undefined, done: true });
      this.#waiting = null;
    }
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.#queue.length) return Promise.resolve({ value: this.#queue.shift()!, done: false });
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.#queue.length = 0;
    this.end();
    this.leave(this);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

class Hub {
  readonly sinks = new Set<Sink>();
  #closed = false;
  /** The last result, for a subscription whose results are whole states (replayLatest). */
  #latest: ExecutionResult | null = null;
  private source: AsyncIterator<ExecutionResult>;

  constructor(
    stream: Source,
    private serialize: SerializeResult,
    private onClose: () => void,
    private replayLatest = false,
  ) {
    this.source = stream[Symbol.asyncIterator]();
    void this.#pump();
  }

  /** A new subscriber, or null when the hub has just closed. */
  join(): Sink | null {
    if (this.#closed) return null;
    const sink = new Sink((s) => this.#leave(s), this.serialize);
    // A state subscription's first result is "the state now": one who joins later gets the
    // latest state at once, as the first subscriber got its own.
    if (this.#latest) sink.push(this.#latest);
    this.sinks.add(sink);
    return sink;
  }

  async #pump() {
    try {
      for (;;) {
        const { value, done } = await this.source.next();
        if (done || this.#closed) break;
        if (this.replayLatest) this.#latest = value;
        // Direct subscribers in slices, the next event only once every subscriber has this
        // one: each still gets every event in order. One serialization serves them all.
        let payload: Buffer | undefined;
        let sent = 0;
        for (const sink of [...this.sinks]) {
          if (!sink.direct) {
            sink.push(value);
            continue;
          }
          sink.push(value, (payload ??= this.serialize(value)));
          if (++sent % SEND_SLICE === 0) await nextTurn();
        }
      }
    } catch {
      // The source failed: every subscriber's stream ends, as it would have alone.
    }
    this.#close();
  }

  #leave(sink: Sink) {
    this.sinks.delete(sink);
    if (this.sinks.size === 0) this.#close();
  }

  #close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
    this.onClose();
    void this.source.return?.();
  }
}

export interface SharedSubscriptions {
  /**
   * `start` runs the subscription for real; subscribers with the same `key` join the first
   * one's. A start that fails (an error result: bad key, unknown check) is never shared.
   */
  subscribe(key: string, start: () => Promise<Started>, options?: { replayLatest?: boolean }): Promise<Started>;
  /** Live shared subscriptions, i.e. event listeners held. */
  count(): number;
  /** Subscribers over all of them. */
  subscribers(): number;
}

/**
 * One registry per server: subscribers of different servers never share. `serialize` makes a
 * result's `next` payload for subscribers that take bytes (the transport's own rules).
 */
export function createSharedSubscriptions(serialize: SerializeResult = toJsonBytes): SharedSubscriptions {
  const hubs = new Map<string, Hub | Promise<Hub | ExecutionResult>>();
  const live = () => [...hubs.values()].filter((h): h is Hub => h instanceof Hub);
  return {
    count: () => live().length,
    subscribers: () => live().reduce((n, h) => n + h.sinks.size, 0),
    async subscribe(key, start, options = {}) {
      for (;;) {
        let entry = hubs.get(key);
        if (!entry) {
          const starting = (async () => {
            const started = await start();
            if (!isStream(started)) {
              hubs.delete(key);
              return started;
            }
            const hub: Hub = new Hub(
              started,
              serialize,
              () => {
                if (hubs.get(key) === hub) hubs.delete(key);
              },
              options.replayLatest,
            );
            hubs.set(key, hub);
            return hub;
          })();
          hubs.set(key, starting);
          starting.catch(() => hubs.get(key) === starting && hubs.delete(key));
          entry = starting;
        }
        const hub = await entry;
        // The first subscriber's start failed: this one runs its own (and gets its own error).
        if (!(hub instanceof Hub)) return start();
        const sink = hub.join();
        if (sink) return sink;
        // The hub closed while this subscriber waited for it: start or join the next one.
      }
    },
  };
}
