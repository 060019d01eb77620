// Malformed and oversized input on the Healthchecks routes: a clear 4xx, never a 5xx or a
// stall, and nothing stored or changed.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

const checksOf = () => w.app.db.check.findMany({ where: { projectId: w.alice.id }, orderBy: { id: 'asc' } });
const newCheck = async (body: Record<string, unknown> = {}) => (await w.api('POST', '/api/v3/checks/', { body })).json.uuid as string;

/**
 * Sends the request head and only `sent` bytes of a body that declares `declared` bytes, and
 * resolves with the raw response (the server must answer without waiting for the rest).
 */
function truncatedUpload(path: string, declared: number, sent: string, headers: Record<string, string> = {}): Promise<string> {
  const { port } = new URL(w.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      const head = Object.entries({ Host: 'test', 'Content-Length': String(declared), ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${sent}`);
    });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (/\r\n\r\n/.test(data) && /Content-Length: (\d+)/i.test(data)) {
        const length = Number(/Content-Length: (\d+)/i.exec(data)![1]);
        if (data.length >= data.indexOf('\r\n\r\n') + 4 + length) {
          socket.destroy();
          resolve(data);
        }
      }
    });
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(data)}`));
    }, 5000);
  });
}

describe('Management API bodies', () => {
  it('answers 413 to a body over 2.5 MB (Django’s limit) and creates nothing', async () => {
    const before = await checksOf();
    const res = await w.api('POST', '/api/v3/checks/', { body: { name: 'big', desc: 'd'.repeat(2.5 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: 'request body too large: at most 2.5 MB' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await checksOf()).toEqual(before);
    // A 2 MB description, which Healthchecks accepts, is accepted.
    const fits = await w.api('POST', '/api/v3/checks/', { body: { name: 'fits', desc: 'd'.repeat(2 * 1024 * 1024) } });
    expect(fits.status).toBe(201);
  });

  it('answers 413 to an update over the limit and leaves the check as it was', async () => {
    const code = await newCheck({ name: 'sized' });
    const before = await checksOf();
    for (const version of [1, 2, 3]) {
      const res = await w.api('POST', `/api/v${version}/checks/${code}`, { body: { desc: 'd'.repeat(3 * 1024 * 1024) } });
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ error: 'request body too large: at most 2.5 MB' });
    }
    expect(await checksOf()).toEqual(before);
  });

  it('answers a declared Content-Length over the limit at once, without waiting for the body', async () => {
    const before = await checksOf();
    const answer = await truncatedUpload('/api/v3/checks/', 10 * 1024 ** 3, '{"name": "', { 'X-Api-Key': w.alice.api_key, 'Content-Type': 'application/json' });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"error":"request body too large: at most 2.5 MB"}');
    expect(await checksOf()).toEqual(before);
    expect((await w.api('GET', '/api/v3/checks/')).status).toBe(200);
  });

  it('refuses JSON nested past 32 levels as an unreadable body, creating and changing nothing', async () => {
    const code = await newCheck({ name: 'deep' });
    const before = await checksOf();
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const created = await w.api('POST', '/api/v3/checks/', { rawBody: `{"name": "x", "unique": ${deep}}` });
    expect(created.status).toBe(400);
    expect(created.json).toEqual({ error: 'could not parse request body' });
    const updated = await w.api('POST', `/api/v3/checks/${code}`, { rawBody: `{"name": ${'['.repeat(33)}${']'.repeat(33)}}` });
    expect(updated.status).toBe(400);
    expect(updated.json).toEqual({ error: 'could not parse request body' });
    expect(await checksOf()).toEqual(before);
    // 32 levels parse, and fail validation as Healthchecks would.
    const shallow = await w.api('POST', `/api/v3/checks/${code}`, { rawBody: `{"name": ${'['.repeat(31)}${']'.repeat(31)}}` });
    expect(shallow.json).toEqual({ error: 'json validation error: name is not a string' });
  });

  it('treats a __proto__ key as an unknown key', async () => {
    const res = await w.api('POST', '/api/v3/checks/', { rawBody: '{"__proto__": {"name": 5, "timeout": 1}, "name": "proto"}' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'proto', timeout: 86400 });
  });
});

describe('ping body numbers', () => {
  it.each(['99999999999999999999', '2147483648', '9223372036854775808'])('answers 404 for ping %s, as for any ping the check does not have', async (n) => {
    const code = await newCheck();
    await w.ping(`/ping/${code}`, { method: 'POST', body: 'hello' });
    const res = await w.api('GET', `/api/v3/checks/${code}/pings/${n}/body`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not found' });
    // The key is still checked first.
    expect((await w.api('GET', `/api/v3/checks/${code}/pings/${n}/body`, { key: null })).status).toBe(401);
    expect((await w.api('GET', `/api/v3/checks/${code}/pings/1/body`)).text).toBe('hello');
  });
});

describe('ping bodies', () => {
  it('refuses a body over 2.5 MB with 400 and records no ping', async () => {
    const code = await newCheck();
    const res = await w.ping(`/ping/${code}`, { method: 'POST', body: 'x'.repeat(2.5 * 1024 * 1024 + 1) });
    expect(res.status).toBe(400);
    expect(res.text).toBe('request body too large');
    expect(await w.app.db.ping.count({ where: { check: { code } } })).toBe(0);
  });

  it('refuses a chunked body (no Content-Length) once it passes 2.5 MB, keeping at most that much', async () => {
    const code = await newCheck();
    const chunk = new Uint8Array(256 * 1024).fill(0x7a);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 12) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${w.url}/ping/${code}`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('request body too large');
    expect(await w.app.db.ping.count({ where: { check: { code } } })).toBe(0);
  });

  it('answers a declared 10 GB body at once (no buffering, no waiting) and records no ping', async () => {
    const code = await newCheck();
    const answer = await truncatedUpload(`/ping/${code}`, 10 * 1024 ** 3, 'partial');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.endsWith('request body too large')).toBe(true);
    expect(await w.app.db.ping.count({ where: { check: { code } } })).toBe(0);
    expect((await w.ping(`/ping/${code}`)).status).toBe(200);
  });

  it('keeps only PING_BODY_LIMIT bytes of a large body it accepts', async () => {
    const code = await newCheck();
    const res = await w.ping(`/ping/${code}`, { method: 'POST', body: 'y'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(200);
    const [ping] = await w.app.db.ping.findMany({ where: { check: { code } } });
    expect(ping!.body!.length).toBe(10000);
  });
});
