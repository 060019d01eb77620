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
// Three clients (option "client"). "raw", the default, speaks graphql-ws's protocol over a
// WebSocket it handles itself on a plain TCP socket, as wrk speaks HTTP: reads land in one
// shared buffer, a receipt is timed before anything else, and a `next` is checked by comparing
// its bytes with the same event's message as the first subscriber got it (parsed, checked, and
// its content checked by the suite); anything else is parsed. 10,000 real subscribers parse
// their messages on their own machines, not in one process on the server's two cores. "ws"
// uses `ws`'s WebSocket and times a `next` of operation "1" with data before parsing it (the
// client of the figures until 2026-11-26, later), and "graphql-ws" runs graphql-ws's own client
// per subscriber: both for comparison. Each round's answer also counts `mismatched` receipts
// (raw) and carries the event's message as received (`sample`).
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
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
  client?: 'raw' | 'ws' | 'graphql-ws';
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
          samples[k] ??= JSON.stringify({ id: '1', type: 'next', payload: value });
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

/**
 * The k-th `next` message of the subscription, as the first subscriber to receive it got it,
 * parsed and checked (a `next` of operation "1" with data and no errors): every subscriber sends
 * the same subscribe message, so every one must receive these very bytes, and a k-th message
 * equal to it is a correct one without being parsed. One that differs is parsed and counted in
 * `mismatched` (e.g. a subscriber that missed an event and got the next one as its k-th).
 */
const references: Buffer[] = [];
/** The text of each reference (the suite checks each flip's content). */
const samples: string[] = [];
let mismatched = 0;

// graphql-ws's `next` for subscription "1" with data and no errors: the one message the ws
// client times without parsing. Anything else is parsed and handled as graphql-ws would.
const NEXT_HEAD = Buffer.from('{"id":"1","type":"next","payload":{"data":');

function openWs(): Promise<void> {
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
      if (data.length > NEXT_HEAD.length && data.compare(NEXT_HEAD, 0, NEXT_HEAD.length, 0, NEXT_HEAD.length) === 0) {
        samples[sub.received.length + 1] ??= data.toString();
        return received(sub, at);
      }
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

// The raw client: graphql-transport-ws over a WebSocket spoken by hand on a plain TCP socket,
// as wrk speaks HTTP: the socket reads into one buffer shared by every connection (`onread`:
// no Buffer, no stream event per read), a frame is read in place, and a `next` equal to the
// reference is timed and counted with no allocation but the receipt's own. Everything else
// (the handshake, connection_ack, ping, errors, close) is parsed and checked.
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** A client frame (masked, as RFC 6455 requires of clients): text, or close with a code. */
function clientFrame(opcode: number, body: Buffer): Buffer {
  const n = body.length;
  const h = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(h + 4 + n);
  frame[0] = 0x80 | opcode;
  if (h === 2) frame[1] = 0x80 | n;
  else if (h === 4) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, h);
  for (let i = 0; i < n; i++) frame[h + 4 + i] = body[i]! ^ mask[i & 3]!;
  return frame;
}

function openRaw(): Promise<void> {
  return new Promise((resolve) => {
    const sub: Subscriber = { received: [], errors: 0, dispose: () => {} };
    subscribers.push(sub);
    const key = randomBytes(16).toString('base64');
    const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
    let upgraded = false;
    let acknowledged = false;
    let gone = false;
    /** Bytes of an incomplete frame (or of the handshake's answer) carried to the next read. */
    let pending: Buffer | null = null;
    const fail = (why: string) => {
      if (gone) return;
      gone = true;
      socket.destroy();
      if (acknowledged) {
        closedLater++;
        if (why) lastError = why;
        return;
      }
      failures++;
      lastError = why;
      acknowledged = true;
      resolve();
    };
    const sendText = (text: string) => socket.write(clientFrame(0x1, Buffer.from(text)));
    sub.dispose = () =>
      new Promise<void>((done) => {
        if (gone) return done();
        gone = true;
        const body = Buffer.alloc(2);
        body.writeUInt16BE(1000);
        socket.end(clientFrame(0x8, body), () => done());
        setTimeout(done, 1000).unref();
      });

    /** One text message, bytes [start, end) of `data`. */
    const onText = (data: Buffer, start: number, end: number, at: number) => {
      const ref = references[sub.received.length + 1];
      if (ref !== undefined && end - start === ref.length && data.compare(ref, 0, ref.length, start, end) === 0) return received(sub, at);
      const text = data.toString('utf8', start, end);
      let message: { id?: string; type?: string; payload?: { data?: unknown; errors?: Array<{ message: string }> } | Array<{ message: string }> };
      try {
        message = JSON.parse(text);
      } catch {
        sub.errors++;
        lastError = `not JSON: ${text.slice(0, 80)}`;
        return;
      }
      if (message.type === 'connection_ack' && !acknowledged) {
        sendText(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        acknowledged = true;
        resolve();
      } else if (message.type === 'ping') sendText('{"type":"pong"}');
      else if (message.type === 'next' && message.id === '1' && !Array.isArray(message.payload) && message.payload?.data && !message.payload.errors?.length) {
        const k = sub.received.length + 1;
        if (references[k] === undefined) {
          references[k] = Buffer.from(data.subarray(start, end)); // a copy: `data` is reused
          samples[k] = text;
        } else mismatched++;
        received(sub, at);
      } else {
        sub.errors++;
        const errors = Array.isArray(message.payload) ? message.payload : message.payload?.errors;
        lastError = errors?.[0]?.message ?? `unexpected message: ${text.slice(0, 80)}`;
      }
    };

    /** Reads the frames in [start, end) of `data`; keeps an incomplete one for the next read. */
    const onFrames = (data: Buffer, start: number, end: number, at: number) => {
      while (start < end) {
        if (end - start < 2) break;
        const b0 = data[start]!;
        let n = data[start + 1]!;
        let h = 2;
        if (n & 0x80) return fail('masked frame from the server');
        if (n === 126) {
          if (end - start < 4) break;
          n = data.readUInt16BE(start + 2);
          h = 4;
        } else if (n === 127) {
          if (end - start < 10) break;
          n = data.readUInt32BE(start + 2) * 2 ** 32 + data.readUInt32BE(start + 6);
          h = 10;
        }
        if (end - start < h + n) break;
        const opcode = b0 & 0x0f;
        if (opcode === 0x1 && b0 & 0x80) onText(data, start + h, start + h + n, at);
        else if (opcode === 0x8) {
          const code = n >= 2 ? data.readUInt16BE(start + h) : 1005;
          return fail(`closed ${code} ${data.toString('utf8', start + h + 2, start + h + n)}`.trim());
        } else if (opcode === 0x9) socket.write(clientFrame(0xa, Buffer.from(data.subarray(start + h, start + h + n))));
        else if (opcode !== 0xa) {
          sub.errors++;
          lastError = `unexpected frame: opcode ${opcode}, fin ${b0 >> 7}`;
        }
        start += h + n;
      }
      pending = start < end ? Buffer.from(data.subarray(start, end)) : null;
    };

    const onHandshake = (data: Buffer, at: number) => {
      const endOfHead = data.indexOf('\r\n\r\n');
      if (endOfHead < 0) {
        pending = data;
        return;
      }
      const head = data.toString('latin1', 0, endOfHead);
      if (!/^HTTP\/1\.1 101 /.test(head) || !head.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`)) return fail(head.split('\r\n')[0]!);
      upgraded = true;
      pending = null;
      sendText(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': options.apiKey } }));
      onFrames(data, endOfHead + 4, data.length, at);
    };

    const socket = connect({
      host: '127.0.0.1',
      port: options.port,
      noDelay: true,
      onread: {
        buffer: READ_BUFFER,
        callback: (nread: number, buffer: Uint8Array) => {
          const at = Date.now();
          const data = buffer as Buffer;
          if (!upgraded) onHandshake(pending ? Buffer.concat([pending, data.subarray(0, nread)]) : Buffer.from(data.subarray(0, nread)), at);
          else if (pending) {
            const all = Buffer.concat([pending, data.subarray(0, nread)]);
            onFrames(all, 0, all.length, at);
          } else onFrames(data, 0, nread, at);
          return true;
        },
      },
    });
    socket.on('connect', () =>
      socket.write(`GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`),
    );
    socket.on('close', () => fail(gone ? '' : 'connection closed'));
    socket.on('error', (err) => fail(err.message));
  });
}

const open = options.client === 'graphql-ws' ? openGraphqlWs : options.client === 'ws' ? openWs : openRaw;

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
    mismatched,
    sample: samples[k],
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
