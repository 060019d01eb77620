// The pages emailed links open (/reset, /sign-in, /verify, /invite + a token): the dashboard's
// page, never cached, and labelled by their route pattern, so the access log and the metrics,
// which name the route and never the URL, do not carry the token.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { IncomingMessage } from 'node:http';
import { useWorld } from '../helpers/fixtures.ts';
import { createRouter, routeOf } from '../../src/http/router.ts';
import { registerWebRoutes } from '../../src/http/web.ts';
import { LINK_PAGES } from '../../src/identity/mail.ts';

const w = useWorld();
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('link pages', () => {
  it('are labelled by their pattern, not the token', () => {
    const router = createRouter({});
    registerWebRoutes(router, { db: w.app.db }, pino({ level: 'silent' }));
    for (const page of LINK_PAGES) {
      expect(routeOf(router, { method: 'GET', url: `/${page}/${TOKEN}` } as IncomingMessage)).toBe(`/${page}/:token`);
    }
  });

  it('serve the dashboard page, not to be stored, with no referrer to leak the token', async () => {
    const index = await (await fetch(`${w.url}/`)).text();
    for (const page of LINK_PAGES) {
      const res = await fetch(`${w.url}/${page}/${TOKEN}`);
      expect(res.status, page).toBe(200);
      expect(await res.text()).toBe(index);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const metrics = await (await fetch(`${w.url}/metrics`)).text();
    expect(metrics).toContain('route="/reset/:token"');
    expect(metrics).not.toContain(TOKEN);
  });
});
