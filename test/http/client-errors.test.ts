// Requests Node's HTTP parser refuses (headers over 16 KB, malformed HTTP) are answered even
// while the client is still sending a body: the answer, then a lingering close, not a reset.
// (The fuzz suite's PostgreSQL pass met the reset: a 20 KB query with a 3 MB body.)
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerClientErrors } from '../../src/http/client-errors.ts';
import { send } from '../fuzz/harness.ts';
import { bundleServer, startGatewayProcess, type GatewayProcess, type ServerBundle } from '../helpers/gateway-process.ts';

// A server process of its own: in the test's own process, client and server share one event
// loop and the reset does not happen.
let bundle: ServerBundle;
let gateway: GatewayProcess;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'client-errors-'));
  bundle = await bundleServer();
  gateway = await startGatewayProcess(bundle, { DATABASE_URL: `file:${path.join(dir, 'gateway.db')}` });
}, 120_000);
afterAll(async () => {
  await gateway?.stop();
  bundle?.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** The fuzz harness's raw sender, on a new connection each time; a reset resolves as its message. */
const sendWithBody = (base: string, path: string, body: Buffer): Promise<{ status?: number; error?: string }> =>
  send(base, { method: 'GET', path, headers: {}, body }, 10_000, new http.Agent()).then(
    (res) => ({ status: res.status }),
    (err: Error) => ({ error: err.message }),
  );

/** Writes raw bytes on a new connection; resolves with all it reads until the server closes. */
function raw(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

it('answers 431 to a request line over the header limit while its 3 MB body is still coming, every time', async () => {
  const body = Buffer.alloc(3_000_000, 'a');
  for (let i = 0; i < 5; i++) {
    expect(await sendWithBody(gateway.url, `/pages/about?q=${'1'.repeat(20_000)}`, body)).toEqual({ status: 431 });
  }
  // The same request with a query under the limit reaches the routes.
  expect((await sendWithBody(gateway.url, `/pages/about?q=${'1'.repeat(100)}`, body)).status).toBe(404);
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
});

it('answers 400 with Connection: close to malformed HTTP, and closes', async () => {
  const answer = await raw(gateway.url, 'NOT HTTP AT ALL\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(answer).toMatch(/\r\nConnection: close\r\n/);
});

it('cuts a refused client that goes on sending once the lingering time is over', async () => {
  const server = http.createServer((_req, res) => res.end());
  answerClientErrors(server, 100);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const closed = await new Promise<{ answer: string; ms: number }>((resolve) => {
      // Half-open: the server's FIN after its answer does not end this side, which goes on writing.
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      let answer = '';
      const started = Date.now();
      const chunk = Buffer.alloc(16 * 1024, 'a');
      // A request whose headers never end, written for as long as the socket takes it.
      socket.on('connect', () => {
        socket.write(`GET /?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n`);
        const more = setInterval(() => socket.writable && socket.write(chunk), 5);
        socket.on('close', () => {
          clearInterval(more);
          resolve({ answer, ms: Date.now() - started });
        });
      });
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', () => {});
    });
    expect(closed.answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(closed.ms).toBeGreaterThanOrEqual(90);
    expect(closed.ms).toBeLessThan(5_000);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
