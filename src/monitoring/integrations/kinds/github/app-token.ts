// GitHub App authentication, after Healthchecks' hc/integrations/github/client.py: a JWT
// (RS256, signed with the app's private key, issued by its client id, valid 10 minutes) buys an
// installation access token from POST /app/installations/<id>/access_tokens. A 404 means the
// installation is gone (the app was uninstalled): no token.
import { createSign } from 'node:crypto';
import { baseUrlFor, rebase } from '../shared/http.ts';
import { isPrivateLiteral, PRIVATE_IP_ERROR, publicOnlyAgent } from '../shared/private-ips.ts';
import { DeliveryError, type Delivery } from '../shared/transport.ts';
import { fetch } from 'undici';

const GITHUB_API = 'https://api.github.com';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The app's JWT at `nowSeconds` (Healthchecks: iat now, exp 600 s later, iss the client id). */
export function appJwt(clientId: string, privateKey: string, nowSeconds: number): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iat: nowSeconds, exp: nowSeconds + 600, iss: clientId }));
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** GitHub's URL for `path`, through INTEGRATION_BASE_URLS' github entry when there is one. */
export const githubUrl = (d: Pick<Delivery, 'settings' | 'channel'>, path: string) => rebase(`${GITHUB_API}${path}`, baseUrlFor(d));

/**
 * The installation's access token; null when GitHub answers 404. The JWT is dated by the wall
 * clock, not the notifier's: GitHub checks it against its own.
 */
export async function installationToken(d: Delivery, installationId: number, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string | null> {
  const app = d.settings.github;
  if (!app) throw new DeliveryError('GitHub notifications are not enabled.', true);
  const jwt = appJwt(app.clientId, app.privateKey, nowSeconds);
  const url = githubUrl(d, `/app/installations/${installationId}/access_tokens`);
  if (!d.settings.allowPrivateIps && isPrivateLiteral(url)) throw new DeliveryError(PRIVATE_IP_ERROR, true);
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, {
      // As every request of the kinds: a private address only when the operator allows it.
      dispatcher: d.settings.allowPrivateIps ? undefined : publicOnlyAgent,
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, Accept: 'application/vnd.github+json', 'User-Agent': 'cron-campus-gateway' },
      signal: AbortSignal.timeout(d.settings.timeoutMs),
    });
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    if (e.name === 'TimeoutError') throw new DeliveryError(`Timed out after ${d.settings.timeoutMs / 1000} s`);
    if (e.cause?.code === 'EPRIVATEIP') throw new DeliveryError(PRIVATE_IP_ERROR, true);
    throw new DeliveryError(`Connection failed: ${e.cause?.code ?? e.message ?? String(err)}`);
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const text = await response.text();
  let token: unknown;
  try {
    token = (JSON.parse(text) as { token?: unknown }).token;
  } catch {
    token = undefined;
  }
  // Healthchecks fails on an answer without a token (pydantic); said here with the status.
  if (typeof token !== 'string') throw new DeliveryError(`GitHub did not give an installation token (status code ${response.status})`);
  return token;
}
