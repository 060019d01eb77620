// The links in a channel recipient's mail (Healthchecks' paths): /integrations/<uuid>/verify/<token>/
// confirms the address; /integrations/<uuid>/unsub/<token>/ asks, and its POST (the page's
// button, or a mail client's one-click List-Unsubscribe-Post) unsubscribes. Plain server pages,
// not the dashboard: the recipient has no account and may have no JavaScript. The domain is
// src/monitoring/integrations/consent.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../monitoring/context.ts';
import { channelForLink, confirmRecipient, unsubscribeRecipient, type ConsentTarget } from '../monitoring/integrations/consent.ts';
import { secretKey } from '../monitoring/secret-key.ts';
import { readBody, BodyTooLarge } from './respond.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // The token is in the address: no cache keeps it, no referrer carries it away.
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

function page(res: ServerResponse, status: number, siteName: string, title: string, body: string) {
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – ${escapeHtml(siteName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}button{font:inherit;padding:.5rem 1rem;background:#0b5cad;color:#fff;border:0;border-radius:4px;cursor:pointer}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>
`;
  const buffer = Buffer.from(html);
  res.writeHead(status, { ...HEADERS, 'Content-Length': buffer.length });
  res.end(buffer);
}

const NOT_VALID = '<p>This link is not valid: the address was changed or the integration was removed since it was sent.</p>';
const whose = (t: ConsentTarget) => `the project “${escapeHtml(t.projectName)}”`;

export function registerChannelConsentRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  const secret = () => secretKey(deps.db, deps.settings.secretKey);
  const site = () => deps.settings.siteName;
  const guard = (handler: (req: IncomingMessage, res: ServerResponse, code: string, token: string) => Promise<void>) => (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>) => {
    handler(req, res, params.code ?? '', params.token ?? '').catch((err: unknown) => {
      log.error({ err }, 'channel consent link failed');
      if (!res.headersSent) page(res, 500, site(), 'Something went wrong', '<p>Please try the link again in a moment.</p>');
    });
  };

  router.get('/integrations/:code/verify/:token/', guard(async (_req, res, code, token) => {
    const target = await confirmRecipient(deps.db, await secret(), code, token, deps.clock.now());
    if (!target) return page(res, 404, site(), 'Link not valid', NOT_VALID);
    page(res, 200, site(), 'Address confirmed', `<p>Alerts from ${whose(target)} will now reach <strong>${escapeHtml(target.channel.value)}</strong>.</p><p>Each alert carries a link to unsubscribe.</p>`);
  }));

  router.get('/integrations/:code/unsub/:token/', guard(async (_req, res, code, token) => {
    const target = await channelForLink(deps.db, await secret(), 'unsubscribe', code, token);
    if (!target) return page(res, 404, site(), 'Link not valid', NOT_VALID);
    // A GET only asks: mail scanners open links, and must not unsubscribe anyone.
    page(res, 200, site(), 'Unsubscribe', `<p>Stop alerts from ${whose(target)} to <strong>${escapeHtml(target.channel.value)}</strong>?</p><form method="post"><button type="submit">Unsubscribe</button></form>`);
  }));

  router.post('/integrations/:code/unsub/:token/', guard(async (req, res, code, token) => {
    // The body (One-Click's "List-Unsubscribe=One-Click", or the form's nothing) says nothing we need.
    await readBody(req, 4096).catch((err: unknown) => {
      if (!(err instanceof BodyTooLarge)) throw err;
    });
    const target = await unsubscribeRecipient(deps.db, await secret(), code, token, deps.clock.now());
    if (!target) return page(res, 404, site(), 'Link not valid', NOT_VALID);
    page(res, 200, site(), 'Unsubscribed', `<p><strong>${escapeHtml(target.channel.value)}</strong> no longer receives alerts from ${whose(target)}.</p><p>The project can ask you again; nothing reaches you unless you confirm.</p>`);
  }));
}
