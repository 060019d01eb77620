// The dashboard (/) and the public status pages (/status/<slug>): one HTML page that loads the
// Preact bundle from /assets/ and then speaks only the public GraphQL API. Assets carry their
// content hash in their names and are cached for a year; the HTML is revalidated every time
// (so a new build is picked up at once). Compression is app.ts's, as for every response.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { projectRoot, selfContained, webRoot } from '../paths.ts';
import { statusPageExists } from '../monitoring/status-pages/service.ts';
import { LINK_PAGES } from '../identity/mail.ts';
import type { HttpRouter } from './router.ts';
import { sendText } from './respond.ts';

interface File {
  body: Buffer;
  type: string;
  etag: string;
}

interface Bundle {
  index: File;
  assets: Map<string, File>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const IMMUTABLE = 'public, max-age=31536000, immutable';

// The page talks to this origin only (its GraphQL over HTTP, WebSocket and SSE); the key it
// holds must not leak through a referrer or an injected script.
const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

const file = (body: Buffer, type: string): File => ({ body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` });

/**
 * Reads the web assets into memory once. In a checkout (tests, `npm run dev`), where the sources
 * are newer than the build, builds first, so the page is never stale or missing; the production
 * build serves what it was built with.
 */
async function loadBundle(): Promise<Bundle> {
  const script = path.join(projectRoot, 'scripts/build-web.mjs');
  if (!selfContained && existsSync(script)) {
    const { webIsStale, buildWeb } = (await import(pathToFileURL(script).href)) as { webIsStale(root: string): boolean; buildWeb(root: string): Promise<unknown> };
    if (webIsStale(projectRoot)) await buildWeb(projectRoot);
  }
  const dir = webRoot;
  const assets = new Map<string, File>();
  for (const name of readdirSync(path.join(dir, 'assets'))) {
    const type = TYPES[path.extname(name)];
    if (type) assets.set(name, file(readFileSync(path.join(dir, 'assets', name)), type));
  }
  return { index: file(readFileSync(path.join(dir, 'index.html')), 'text/html; charset=utf-8'), assets };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, f: File, headers: Record<string, string>) {
  if (status === 200 && req.headers['if-none-match'] === f.etag) {
    res.writeHead(304, { ETag: f.etag, ...headers });
    return res.end();
  }
  res.writeHead(status, { 'Content-Type': f.type, 'Content-Length': f.body.length, ETag: f.etag, ...headers });
  res.end(f.body);
}

export function registerWebRoutes(router: HttpRouter, deps: { db: Db }, log: Logger) {
  let loading: Promise<Bundle> | undefined;
  const bundle = () =>
    (loading ??= loadBundle().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const serve = (handler: (b: Bundle, req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>) => unknown) =>
    async (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>) => {
      let b: Bundle;
      try {
        b = await bundle();
      } catch (err) {
        log.error({ err }, 'dashboard bundle unavailable');
        return sendText(res, 503, 'The dashboard is not built: run npm run build\n');
      }
      try {
        await handler(b, req, res, params);
      } catch (err) {
        // The status page look-up reads the database; the router would drop a rejection.
        log.error({ err }, 'web page failed');
        if (!res.headersSent) sendText(res, 500, 'Internal server error\n');
      }
    };

  router.get('/', serve((b, req, res) => send(req, res, 200, b.index, PAGE_HEADERS)));
  // The same page: it reads the slug from its address. An unknown or withdrawn slug is a 404
  // here too, so nothing (crawler, monitor) takes it for a published page.
  router.get('/status/:slug', serve(async (b, req, res, params) => send(req, res, (await statusPageExists(deps.db, params.slug ?? '')) ? 200 : 404, b.index, PAGE_HEADERS)));
  // The pages emailed links open (password reset, sign-in link, address confirmation, invitation):
  // the same page, which reads the token from its address. The access log names the route
  // pattern, never the token; nothing caches the page, and no-referrer keeps the token home.
  for (const page of LINK_PAGES) {
    router.get(`/${page}/:token`, serve((b, req, res) => send(req, res, 200, b.index, { ...PAGE_HEADERS, 'Cache-Control': 'no-store' })));
  }
  router.get('/assets/:name', serve((b, req, res, params) => {
    const asset = b.assets.get(params.name ?? '');
    if (!asset) return sendText(res, 404, 'Not found\n');
    send(req, res, 200, asset, { 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff' });
  }));
}
