// How / and /status/<slug> are served: one small HTML page (revalidated every time) that loads
// content-hashed assets (cached for a year), compressed, under 200 KB gzipped in all; and
// GraphiQL's 9 MB page compressed too.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();

const BUDGET = 200 * 1024;

/** Bytes on the wire with gzip (the compressed Content-Length; the raw one when not compressed). */
async function gzipped(path: string) {
  const res = await fetch(w.url + path, { headers: { 'Accept-Encoding': 'gzip' } });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body, wire: Number(res.headers.get('content-length') ?? body.length), encoding: res.headers.get('content-encoding') };
}

describe('the dashboard page', () => {
  it('is an HTML page revalidated on every load, that only talks to its own origin', async () => {
    const { res, body } = await gzipped('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(body.toString()).not.toMatch(/https?:\/\//);
    const again = await fetch(`${w.url}/`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('loads under 200 KB gzipped, assets compressed and cached for a year under hashed names', async () => {
    const page = await gzipped('/');
    const assets = [...page.body.toString().matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => a.replace(/-[A-Z0-9]{8}\./, '-<hash>.')).sort()).toEqual(['/assets/main-<hash>.css', '/assets/main-<hash>.js']);
    let total = page.wire;
    for (const asset of assets) {
      const { res, wire, encoding } = await gzipped(asset);
      expect(res.status, asset).toBe(200);
      expect(encoding, asset).toBe('gzip');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      total += wire;
    }
    expect(total, `the page weighs ${total} bytes gzipped`).toBeLessThan(BUDGET);
  });

  it('answers unknown assets and unpublished status pages with 404', async () => {
    expect((await fetch(`${w.url}/assets/main-NOPE.js`)).status).toBe(404);
    const missing = await fetch(`${w.url}/status/nobody`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('GraphiQL', () => {
  it('is served compressed (br or gzip), with a validator', async () => {
    for (const encoding of ['gzip', 'br']) {
      const res = await fetch(`${w.url}/graphql`, { headers: { Accept: 'text/html', 'Accept-Encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('etag')).toBeTruthy();
      const wire = Number(res.headers.get('content-length'));
      const html = await res.text();
      expect(html.length).toBeGreaterThan(5_000_000);
      expect(wire).toBeLessThan(html.length / 3);
    }
  });
});
