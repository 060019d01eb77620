// The unsubscribe link of report and nag mails, at Healthchecks' path
// /accounts/unsubscribe_reports/<signed>/ (so the links in mail an imported instance already
// sent resolve here too). GET answers a small page with a confirmation button (mail scanners
// open links; Healthchecks' page auto-submits when the link is older than five minutes); POST,
// which is also what a mail client's one-click List-Unsubscribe-Post sends, unsubscribes.
// No sign-in: the link's signature is the proof. The domain is reports/unsubscribe.ts.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../../src/monitoring/context.ts';
import { readUnsubscribeLink, unsubscribeByLink } from '../../src/monitoring/reports/unsubscribe.ts';
import { readBody } from '../../src/http/respond.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The confirmation form submits itself with this script; the page's policy allows it by hash.
const AUTOSUBMIT = 'document.getElementById("form").submit();';
const AUTOSUBMIT_HASH = `'sha256-${createHash('sha256').update(AUTOSUBMIT).digest('base64')}'`;

function page(res: ServerResponse, status: number, title: string, body: string, script = false) {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body { font-family: Helvetica, Arial, sans-serif; max-width: 36em; margin: 4em auto; padding: 0 1em; color: #333; } input[type=submit] { font-size: 1.1em; padding: 0.5em 1.5em; }</style>
</head>
<body>
${body}${script ? `\n<script>${AUTOSUBMIT}</script>` : ''}
</body>
</html>
`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src ${AUTOSUBMIT_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  });
  res.end(html);
}

const badLink = (res: ServerResponse) =>
  page(
    res,
    400,
    'Incorrect Link',
    '<h1>Incorrect Link</h1>\n<p>The link you just used is incorrect. If you copy-pasted the link, please make sure you did not miss any characters.</p>',
  );

const unsubscribed = (res: ServerResponse, siteName: string) =>
  page(res, 200, 'Unsubscribed', `<h1>Unsubscribed</h1>\n<p>Your email address has been unsubscribed from ${escapeHtml(siteName)} reports.</p>`);

export function registerUnsubscribeRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: MonitoringDeps, log: Logger) {
  const handle = async (req: IncomingMessage, res: ServerResponse, signed: string) => {
    if (req.method === 'POST') {
      // The one-click body (List-Unsubscribe=One-Click) or the form's: nothing in it matters.
      await readBody(req, 4096).catch(() => undefined);
      return (await unsubscribeByLink(deps, signed)) ? unsubscribed(res, deps.settings.siteName) : badLink(res);
    }
    const link = await readUnsubscribeLink(deps, signed);
    if (link.state === 'bad') return badLink(res);
    if (link.state === 'gone') return unsubscribed(res, deps.settings.siteName);
    page(
      res,
      200,
      'Unsubscribe',
      '<p>Please press the button below to unsubscribe:</p>\n<form id="form" method="post">\n<input id="submit-btn" type="submit" value="Unsubscribe">\n</form>',
      link.autosubmit,
    );
  };
  router.on(['GET', 'HEAD', 'POST'], '/accounts/unsubscribe_reports/:signed/', (req, res, params) => {
    handle(req, res, params.signed ?? '').catch((err: unknown) => {
      log.error({ err }, 'unsubscribe page failed');
      if (!res.headersSent) page(res, 500, 'Error', '<p>Something went wrong; try again later.</p>');
    });
  });
}
