// Many graphql-ws subscribers in one process, each on its own WebSocket, each subscribed to
// the `flips` of one project. Run in its own process:
//   node --import tsx bench/lib/ws-subscribers.ts '{"port":1234,"apiKey":"…","count":10000}'
// Talks to the parent in lines of JSON: it prints {"ready":N,…} once all N sockets are
// acknowledged and their `subscribe` messages written (the server registers them a moment
// later: the parent confirms on /metrics). Then for each stdin command
//   {"expect":K,"sentAt":<epoch ms>,"timeoutMs":…,"raw":false,"warmUp":false}
// it waits until every client has received K flip events in all (or the timeout), and prints
// the delivery latency of the K-th event, Date.now() at receipt − sentAt (one machine, one
// clock), for this round and for all rounds so far; with "raw" also every latency of the round
// (to merge with another process's); a warm-up round is left out of the totals. {"exit":true}
// closes every client.
//
// Two clients (option "client"): "lean", the default, speaks graphql-ws's protocol on a bare
// `ws` socket and does the least per message (a receipt is timed before anything is parsed; only
// a message that is not a plain `next` result is parsed), as wrk is a lean HTTP client: 10,000
// real subscribers parse their messages on their own machines, not in one process on the
// server's two cores. "graphql-ws" runs graphql-ws's own client per subscriber, for comparison.
import { createInterface } from 'node:readline';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface Options {
  port: number;
  apiKey: string;
  count: number;
  /** Sockets opened at once; the next batch starts when this one is acknowledged. */
  batch?: number;
  query?: string;
  client?: 'lean' | 'graphql-ws';
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const batch = options.batch ?? 500;
// FlipEvent has no checkId; `check` would cost one database read per subscriber per flip.
const query = options.query ?? 'subscription { flips { newStatus oldStatus timestamp } }';
const url = `ws://127.0.0.1:${options.port}/graphql`;

const print = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

interface Subscriber {
  /** Closes the subscriber's connection. */
  dispose(): void | Promise<void>;
  /** Date.now() at the receipt of each flip event, in order. */
  received: number[];
  errors: number;
}

const subscribers: Subscriber[] = [];
let failures = 0;
/** reached[k]: how many clients have received at least k events. */
const reached: number[] = [];
/** Sockets that closed after their connection was acknowledged. */
let closedLater = 0;
let lastError = '';

function openGraphqlWs(): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = () => {
      if (!settled) {
        settled = true;
        resolve();
      }
    };
    const sub: Subscriber = { received: [], errors: 0, dispose: () => {} };
    const client: Client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Api-Key': options.apiKey },
      retryAttempts: 0,
      keepAlive: 0,
      on: {
        // `connected` = connection_ack; the subscribe message is already queued behind it.
        connected: () => settle(),
        closed: (event) => {
          if (!settled) {
            failures++;
            lastError = `closed ${(event as { code?: number }).code ?? ''} ${(event as { reason?: string }).reason ?? ''}`.trim();
          } else closedLater++;
          settle();
        },
        error: (err) => {
          if (!settled) {
            failures++;
            lastError = err instanceof Error ? err.message : String((err as { message?: string })?.message ?? err);
          }
          settle();
        },
      },
    });
    sub.dispose = () => client.dispose();
    client.subscribe(
      { query },
      {
        next: (value) => {
          if (value.errors?.length) {
            sub.errors++;
            lastError = value.errors[0]!.message;
            return;
          }
          const k = sub.received.push(Date.now());
          reached[k] = (reached[k] ?? 0) + 1;
        },
        error: (err) => {
          sub.errors++;
          lastError = err instanceof Error ? err.message : JSON.stringify(err);
        },
        complete: () => {},
      },
    );
    subscribers.push(sub);
  });
}


/** A receipt of this subscriber's `next` result (the clock read first, before any parsing). */
function received(sub: Subscriber, at: number) {
  const k = sub.received.push(at);
  reached[k] = (reached[k] ?? 0) + 1;
}

// graphql-ws's `next` for subscription "1" with data and no errors: the one message that is
// timed without being parsed. Anything else is parsed and handled as graphql-ws would.
const NEXT_HEAD = Buffer.from('{"id":"1","type":"next","payload":{"data":');

function openLean(): Promise<void> {
  return new Promise((resolve) => {
    let acknowledged = false;
    const sub: Subscriber = { received: [], errors: 0, dispose: () => socket.close(1000) };
    const socket = new WebSocket(url, 'graphql-transport-ws');
    let gone = false;
    const fail = (why: string) => {
      if (gone) return;
      gone = true;
      if (acknowledged) {
        closedLater++;
        return;
      }
      failures++;
      lastError = why;
      acknowledged = true;
      resolve();
    };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': options.apiKey } })));
    socket.on('message', (data: Buffer) => {
      const at = Date.now();
      if (data.length > NEXT_HEAD.length && data.subarray(0, NEXT_HEAD.length).equals(NEXT_HEAD)) return received(sub, at);
      const message = JSON.parse(data.toString()) as { type: string; payload?: { errors?: Array<{ message: string }> } | Array<{ message: string }> };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        acknowledged = true;
        resolve();
      } else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'next' || message.type === 'error') {
        const errors = Array.isArray(message.payload) ? message.payload : message.payload?.errors;
        if (errors?.length) {
          sub.errors++;
          lastError = errors[0]!.message;
        } else received(sub, at);
      }
    });
    socket.on('close', (code, reason) => fail(`closed ${code} ${reason.toString()}`.trim()));
    socket.on('error', (err) => fail(err.message));
    subscribers.push(sub);
  });
}

const open = options.client === 'graphql-ws' ? openGraphqlWs : openLean;

const started = performance.now();
for (let opened = 0; opened < options.count; ) {
  const n = Math.min(batch, options.count - opened);
  await Promise.all(Array.from({ length: n }, open));
  opened += n;
}
print({
  ready: subscribers.length - failures,
  failed: failures,
  lastError: failures ? lastError : undefined,
  openMs: Math.round(performance.now() - started),
  rss: process.memoryUsage().rss,
});

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function stats(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN, min: sorted[0] ?? NaN };
}

const all: number[] = [];
let expectedTotal = 0;

async function expect(k: number, sentAt: number, timeoutMs: number, raw: boolean, warmUp: boolean) {
  const deadline = Date.now() + timeoutMs;
  while ((reached[k] ?? 0) < subscribers.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  const round: number[] = [];
  for (const s of subscribers) if (s.received.length >= k) round.push(s.received[k - 1]! - sentAt);
  // A warm-up round is reported on its own and left out of the totals.
  if (!warmUp) {
    all.push(...round);
    expectedTotal += subscribers.length;
  }
  print({
    round: k,
    ...stats(round),
    missed: subscribers.length - round.length,
    extra: subscribers.reduce((n, s) => n + Math.max(0, s.received.length - k), 0),
    errors: subscribers.reduce((n, s) => n + s.errors, 0),
    closed: closedLater,
    lastError: lastError || undefined,
    total: { ...stats(all), expected: expectedTotal, missed: expectedTotal - all.length },
    latencies: raw ? round : undefined,
  });
}

// Commands run one after another, in the order they arrive.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const command = JSON.parse(line) as { expect?: number; sentAt?: number; timeoutMs?: number; raw?: boolean; warmUp?: boolean; exit?: boolean };
  queue = queue.then(async () => {
    if (command.exit) {
      await Promise.all(subscribers.map((s) => s.dispose()));
      process.exit(0);
    }
    if (command.expect !== undefined) await expect(command.expect, command.sentAt ?? Date.now(), command.timeoutMs ?? 10_000, command.raw === true, command.warmUp === true);
  });
});
process.stdin.on('end', () => process.exit(0));
