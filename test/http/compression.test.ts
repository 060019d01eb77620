// Response compression: read with node:http so the bytes on the wire are seen as sent.
import http from 'node:http';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { negotiate } from '../../src/http/compression.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function raw(w: World, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${w.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const decode = (r: Raw) =>
  (r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(r.body) : r.body).toString();

const w = useWorld();
beforeAll(async () => {
  for (let i = 0; i < 20; i++) await w.api('POST', '/api/v3/checks/', { body: { name: `check number ${i}`, desc: 'x'.repeat(40) } });
});

describe('negotiate', () => {
  it('prefers br, honours q=0 and *', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiate('identity')).toBeNull();
    expect(negotiate('*')).toBe('br');
    expect(negotiate(undefined)).toBeNull();
  });
});

describe('compression', () => {
  it('compresses a large JSON API response with br or gzip, with Vary and the right length', async () => {
    const plain = await raw(w, 'GET', '/api/v3/checks/', { 'X-Api-Key': w.alice.api_key });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const enc of ['br', 'gzip']) {
      const r = await raw(w, 'GET', '/api/v3/checks/', { 'X-Api-Key': w.alice.api_key, 'Accept-Encoding': enc });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(enc);
      expect(r.headers.vary).toContain('Accept-Encoding');
      expect(r.headers['content-type']).toBe('application/json');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(r.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(r))).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it('compresses GraphQL JSON written by yoga in pieces, and GraphiQL HTML with its ETag kept', async () => {
    const query = JSON.stringify({ query: '{ project { checks { nodes { name a: name b: name c: name } } } }' });
    const r = await raw(w, 'POST', '/graphql', { 'X-Api-Key': w.alice.api_key, 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, query);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(r)).data.project.checks.nodes).toHaveLength(20);

    const page = await raw(w, 'GET', '/graphql', { Accept: 'text/html', 'Accept-Encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(decode(page)).toContain('<html');
    expect(page.body.length).toBeLessThan(decode(page).length / 3);
    // Served again from the cache of compressed bodies; the ETag still answers 304.
    const again = await raw(w, 'GET', '/graphql', { Accept: 'text/html', 'Accept-Encoding': 'br' });
    expect(again.body.equals(page.body)).toBe(true);
    const cached = await raw(w, 'GET', '/graphql', { Accept: 'text/html', 'Accept-Encoding': 'br', 'If-None-Match': String(page.headers.etag) });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
  });

  it('leaves small responses, pings and HEAD alone', async () => {
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'small' } })).json;
    const ping = await raw(w, 'GET', `/ping/${check.ping_url.split('/').pop()}`, { 'Accept-Encoding': 'gzip, br' });
    expect(ping.headers['content-encoding']).toBeUndefined();
    expect(ping.body.toString()).toBe('OK');
    const small = await raw(w, 'GET', `/api/v3/checks/${check.uuid}`, { 'X-Api-Key': w.alice.api_key, 'Accept-Encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).name).toBe('small');
    const head = await raw(w, 'HEAD', '/api/v3/checks/', { 'X-Api-Key': w.alice.api_key, 'Accept-Encoding': 'gzip' });
    expect(head.headers['content-encoding']).toBeUndefined();
    const healthz = await raw(w, 'GET', '/healthz', { 'Accept-Encoding': 'gzip' });
    expect(healthz.body.toString()).toBe('OK');
  });

  it('streams SSE subscriptions uncompressed and unbuffered', async () => {
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'sse', timeout: 60, grace: 60 } })).json;
    const idle = w.app.deps.events.listenerCount('flip');
    const events: string[] = [];
    let headers: http.IncomingHttpHeaders = {};
    const req = http.request(`${w.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, br', 'X-Api-Key': w.alice.api_key },
    });
    const gotFlip = new Promise<void>((resolve) => {
      req.on('response', (res) => {
        headers = res.headers;
        res.on('data', (c: Buffer) => {
          events.push(c.toString());
          if (events.join('').includes('newStatus')) resolve();
        });
      });
    });
    req.end(JSON.stringify({ query: 'subscription($id: ID) { flips(checkId: $id) { newStatus } }', variables: { id: check.uuid } }));
    // The head arrives before any event: nothing is held back.
    await new Promise<void>((resolve) => req.once('response', () => resolve()));
    expect(headers['content-type']).toContain('text/event-stream');
    // yoga marks the stream itself (Content-Encoding: none); it is never br or gzip.
    expect(['br', 'gzip']).not.toContain(headers['content-encoding']);
    // Wait until the subscription listens, then ping: the event arrives while the stream stays open.
    for (let i = 0; i < 200 && !(w.app.deps.events.listenerCount('flip') > idle); i++) await new Promise((r) => setTimeout(r, 5));
    await w.ping(check.ping_url.replace(/^https?:\/\/[^/]+/, ''));
    await gotFlip;
    expect(events.join('')).toContain('"newStatus":"up"');
    req.destroy();
  });

  it('is off with COMPRESSION=off', async () => {
    const off = await createWorld({ COMPRESSION: 'off' });
    try {
      await off.api('POST', '/api/v3/checks/', { body: { name: 'x', desc: 'y'.repeat(2000) } });
      const r = await raw(off, 'GET', '/api/v3/checks/', { 'X-Api-Key': off.alice.api_key, 'Accept-Encoding': 'gzip' });
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(r.body.toString()).checks).toHaveLength(1);
    } finally {
      await off.stop();
    }
  });
});
