// A shared subscription's `next` messages written as ready frames beside `ws` (ws-frames.ts):
// byte-exact messages at every frame-length boundary and in UTF-8, ws's own path where
// compression was negotiated, nothing written to a closed socket, the unsent-bytes limit, and
// the same bytes end to end through the gateway. Also what the ready frames rely on in the
// installed `ws`, through its public surface only: it writes each send at once to the socket
// Node gave the upgrade request.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { nextWriter, textFrame } from '../../../src/graphql/server/ws-frames.ts';
import { createSharedSubscriptions } from '../../../src/graphql/server/shared-subscriptions.ts';
import { createWorld, type World } from '../../helpers/world.ts';

const servers: WebSocketServer[] = [];
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A ws server and one connected client; `server` is the server's side of that connection. */
async function pair(options: { perMessageDeflate?: boolean } = {}) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: options.perMessageDeflate ? { threshold: 0 } : false });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const accepted = new Promise<{ socket: WebSocket; raw: Socket }>((r) => wss.once('connection', (socket, request) => r({ socket, raw: request.socket })));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, { perMessageDeflate: options.perMessageDeflate ?? false });
  clients.push(client);
  const messages: string[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  client.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    messages.push(String(data));
    for (const w of waiting.filter((x) => messages.length >= x.n)) w.resolve();
  });
  await new Promise((r) => client.once('open', r));
  const { socket: server, raw } = await accepted;
  return {
    server,
    /** The server side's connection, as Node handed it to the upgrade (`request.socket`). */
    raw,
    client,
    messages,
    received: (n: number) => new Promise<void>((resolve) => (messages.length >= n ? resolve() : waiting.push({ n, resolve }))),
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** A payload whose whole `next` message (with id "1") is exactly `bytes` long. */
function payloadOfMessageLength(bytes: number) {
  const frame = (s: string) => `{"id":"1","type":"next","payload":{"data":{"s":"${s}"}}}`;
  return json({ data: { s: 'x'.repeat(bytes - frame('').length) } });
}

describe('next frames written beside ws', () => {
  it('frames a message exactly at every length boundary (7-bit, 16-bit and 64-bit lengths)', async () => {
    const { server, raw, messages, received } = await pair();
    const send = vi.spyOn(server, 'send');
    const rawWrite = vi.spyOn(raw, 'write');
    const write = nextWriter(server, raw, '1', Infinity);
    const lengths = [2, 125, 126, 127, 65535, 65536, 70000];
    const payloads = lengths.map((n) => (n < 40 ? json(1) : payloadOfMessageLength(n)));
    for (const p of payloads) expect(write(p)).toBe(true);
    await received(lengths.length);
    expect(messages).toEqual(payloads.map((p) => `{"id":"1","type":"next","payload":${p}}`));
    expect(messages.slice(1).map((m) => Buffer.byteLength(m))).toEqual(lengths.slice(1));
    // The ready frames went beside ws.send, one write each.
    expect(send).not.toHaveBeenCalled();
    expect(rawWrite).toHaveBeenCalledTimes(lengths.length);
  });

  it('writes UTF-8 payloads and ids that JSON escapes, byte for byte', async () => {
    const { server, raw, messages, received } = await pair();
    const id = 'op "7" \\ é\u2028🚀';
    const payload = { data: { flips: { check: { name: 'Café ✓ Zürich 🚀 日本語', desc: 'line\nbreak\u0000' } } } };
    nextWriter(server, raw, id, Infinity)(json(payload));
    await received(1);
    expect(JSON.parse(messages[0]!)).toEqual({ id, type: 'next', payload });
    expect(messages[0]).toBe(`{"id":${JSON.stringify(id)},"type":"next","payload":${JSON.stringify(payload)}}`);
  });

  it("keeps its order with ws's own messages on the same socket", async () => {
    const { server, raw, messages, received } = await pair();
    const write = nextWriter(server, raw, 'a', Infinity);
    write(json({ n: 1 }));
    server.send('{"type":"ping"}');
    write(json({ n: 2 }));
    await received(3);
    expect(messages).toEqual(['{"id":"a","type":"next","payload":{"n":1}}', '{"type":"ping"}', '{"id":"a","type":"next","payload":{"n":2}}']);
  });

  it('sends through ws (compressed) to a client that negotiated permessage-deflate', async () => {
    const { server, raw, client, messages, received } = await pair({ perMessageDeflate: true });
    expect(server.extensions).toBe('permessage-deflate');
    expect(client.extensions).toBe('permessage-deflate');
    const send = vi.spyOn(server, 'send');
    const write = nextWriter(server, raw, '1', Infinity);
    const payload = { data: { name: 'Café ✓ 🚀'.repeat(50) } };
    expect(write(json(payload))).toBe(true);
    expect(write(json({ n: 2 }))).toBe(true);
    await received(2);
    expect(send).toHaveBeenCalledTimes(2);
    expect(messages).toEqual([`{"id":"1","type":"next","payload":${JSON.stringify(payload)}}`, '{"id":"1","type":"next","payload":{"n":2}}']);
  });

  it('writes nothing to a socket that is closing or closed, and does not throw', async () => {
    const { server, raw, client } = await pair();
    const write = nextWriter(server, raw, '1', Infinity);
    server.close(1000);
    expect(write(json(1))).toBe(false);
    await new Promise((r) => client.once('close', r));
    expect(write(json(1))).toBe(false);

    const other = await pair();
    const writeOther = nextWriter(other.server, other.raw, '1', Infinity);
    other.client.terminate();
    await new Promise((r) => other.server.once('close', r));
    expect(writeOther(json(1))).toBe(false);
  });

  it('drops messages while more than the limit is unsent, and delivers the rest intact and in order', async () => {
    const { server, raw, client, messages, received } = await pair();
    const write = nextWriter(server, raw, '1', 64 * 1024);
    // The client stops reading: the kernel's buffers fill, then the socket's own.
    client.pause();
    const big = json({ s: 'y'.repeat(256 * 1024) });
    let sent = 0;
    let dropped = 0;
    for (let i = 0; i < 200 && dropped === 0; i++) {
      if (write(big)) sent++;
      else dropped++;
    }
    expect(dropped).toBe(1);
    expect(server.bufferedAmount).toBeGreaterThan(64 * 1024);
    expect(write(json({ late: true }))).toBe(false);
    client.resume();
    await received(sent);
    expect(messages).toHaveLength(sent);
    expect(messages.every((m) => m === `{"id":"1","type":"next","payload":${big}}`)).toBe(true);
    // Drained: writes go through again.
    for (let i = 0; i < 200 && server.bufferedAmount > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(write(json({ again: true }))).toBe(true);
    await received(sent + 1);
    expect(messages.at(-1)).toBe('{"id":"1","type":"next","payload":{"again":true}}');
  });

  it("rests on ws writing each send at once to the upgrade request's socket (no extension)", async () => {
    // The ready frames keep their order with ws's own messages only because, without
    // permessage-deflate, ws holds nothing back: a send (a string, a Buffer, a ping) is written
    // to this very socket before it returns. If a ws upgrade changes that, this fails.
    const { server, raw, messages, received } = await pair();
    expect(server.extensions).toBe('');
    const rawWrite = vi.spyOn(raw, 'write');
    server.send('{"type":"ping"}');
    expect(rawWrite).toHaveBeenCalled();
    const afterString = rawWrite.mock.calls.length;
    server.send(Buffer.from('{"type":"pong"}'), { binary: false });
    expect(rawWrite.mock.calls.length).toBeGreaterThan(afterString);
    const afterBuffer = rawWrite.mock.calls.length;
    server.ping();
    expect(rawWrite.mock.calls.length).toBeGreaterThan(afterBuffer);
    await received(2);
    expect(messages).toEqual(['{"type":"ping"}', '{"type":"pong"}']);
  });

  it('builds a frame header for each length class', () => {
    const prefix = Buffer.from('{"p":');
    expect([...textFrame(prefix, Buffer.from('1')).subarray(0, 2)]).toEqual([0x81, 7]);
    // The shortest length encoding at each boundary (RFC 6455 5.2: the minimal number of bytes).
    expect([...textFrame(prefix, Buffer.alloc(119, 0x31)).subarray(0, 2)]).toEqual([0x81, 125]);
    expect([...textFrame(prefix, Buffer.alloc(120, 0x31)).subarray(0, 4)]).toEqual([0x81, 126, 0, 126]);
    expect([...textFrame(prefix, Buffer.alloc(200, 0x31)).subarray(0, 4)]).toEqual([0x81, 126, 0, 206]);
    expect([...textFrame(prefix, Buffer.alloc(65_529, 0x31)).subarray(0, 4)]).toEqual([0x81, 126, 0xff, 0xff]);
    expect([...textFrame(prefix, Buffer.alloc(65_530, 0x31)).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    const long = textFrame(prefix, Buffer.alloc(70_000, 0x31));
    expect([...long.subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x76]);
    expect(long.length).toBe(10 + 70_006);
    expect(long.at(-1)).toBe(0x7d);
  });
});

describe('shared subscriptions with direct subscribers', () => {
  it('serializes each event once for all its direct subscribers, past one slice', async () => {
    const serialize = vi.fn((result: unknown) => Buffer.from(JSON.stringify(result)));
    const shared = createSharedSubscriptions(serialize);
    let emit!: (value: { data: { n: number } }) => void;
    let finish!: () => void;
    async function* source() {
      for (;;) {
        const next = await new Promise<{ data: { n: number } } | null>((resolve) => {
          emit = resolve;
          finish = () => resolve(null);
        });
        if (!next) return;
        yield next;
      }
    }
    const got: Buffer[][] = [];
    for (let i = 0; i < 600; i++) {
      const sink = (await shared.subscribe('k', async () => source())) as { sendDirectly(send: (p: Buffer) => void): void };
      const mine: Buffer[] = [];
      got.push(mine);
      sink.sendDirectly((p) => mine.push(p));
    }
    expect(shared.count()).toBe(1);
    expect(shared.subscribers()).toBe(600);
    emit({ data: { n: 1 } });
    for (let i = 0; i < 100 && got.some((g) => g.length < 1); i++) await new Promise((r) => setImmediate(r));
    emit({ data: { n: 2 } });
    for (let i = 0; i < 100 && got.some((g) => g.length < 2); i++) await new Promise((r) => setImmediate(r));
    expect(serialize).toHaveBeenCalledTimes(2);
    expect(got.every((g) => g.map(String).join() === '{"data":{"n":1}},{"data":{"n":2}}')).toBe(true);
    finish();
  });
});

describe('through the gateway', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld();
  });
  afterAll(async () => {
    await w.stop();
  });

  it("delivers a flip of a check with a non-ASCII name, byte for byte what graphql-ws's client parses", async () => {
    const name = 'Nachtlauf ✓ Zürich → 東京 🚀';
    const code = (await w.api('POST', '/api/v2/checks/', { key: w.alice.api_key, body: { name, timeout: 60, grace: 60 } })).json.uuid as string;
    const query = 'subscription($id: ID) { flips(checkId: $id) { newStatus check { name } } }';
    const sockets = await Promise.all(
      ['é-1', 'op-2'].map(async (id) => {
        const socket = new WebSocket(w.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
        clients.push(socket);
        const texts: string[] = [];
        let arrived: () => void;
        const next = new Promise<void>((r) => (arrived = r));
        socket.on('message', (data) => {
          const text = String(data);
          if (JSON.parse(text).type === 'next') {
            texts.push(text);
            arrived();
          }
        });
        await new Promise((r) => socket.once('open', r));
        const acked = new Promise((r) => socket.once('message', r));
        socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': w.alice.api_key } }));
        await acked;
        socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables: { id: code } } }));
        return { id, texts, next };
      }),
    );
    for (let i = 0; i < 200 && w.app.deps.events.listenerCount('flip') === 0; i++) await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 200 && !/gateway_subscriptions_active 2\b/.test(await (await fetch(`${w.url}/metrics`)).text()); i++) await new Promise((r) => setTimeout(r, 10));
    await w.ping(`/ping/${code}/fail`);
    await Promise.all(sockets.map((s) => s.next));
    for (const s of sockets) {
      expect(s.texts).toEqual([JSON.stringify({ id: s.id, type: 'next', payload: { data: { flips: { newStatus: 'down', check: { name } } } } })]);
    }
  });
});
