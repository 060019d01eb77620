// GitHub: Healthchecks' JSON value (installation, repository, labels), the GitHub App settings,
// and what a local GitHub receiver gets through INTEGRATION_BASE_URLS: a JWT (RS256, checked
// here with the public half of a key pair made for the test) for an installation token, then
// the issue (title, body of github_body.html, labels) with that token; down only. A 404 for
// the token is "GitHub denied access to <repo>", a 410 for the issue fails for good.
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import type { ReceivedRequest, ReceiverAnswer } from '../../../../helpers/receivers.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { loadConfig } from '../../../../../src/config/index.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const CLIENT_ID = 'Iv1.campus0123';
const conf = (o: Record<string, unknown> = {}) => JSON.stringify({ installation_id: 123, repo: 'alice/foo', labels: ['foo', 'bar'], ...o });
let w: World;

/** The JWT's claims when its RS256 signature is the test key's; null otherwise. */
function verifiedClaims(authorization: string | undefined): Record<string, unknown> | null {
  const [header, payload, signature] = (authorization ?? '').replace(/^Bearer /, '').split('.');
  if (!header || !payload || !signature) return null;
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'RS256') return null;
  const ok = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(publicKey, Buffer.from(signature, 'base64url'));
  return ok ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null;
}

/** GitHub as the tests need it: a token for a well-signed JWT, then the issue's answer. */
function github(o: { token?: (req: ReceivedRequest) => ReceiverAnswer; issue?: number } = {}) {
  receiver.respond((req) => {
    if (req.path.endsWith('/access_tokens')) {
      if (o.token) return o.token(req);
      return verifiedClaims(req.headers.authorization) ? { status: 201, body: '{"token": "ghs_installation", "expires_at": "2030-01-01T00:00:00Z"}' } : { status: 401, body: '{"message": "A JSON web token could not be decoded"}' };
    }
    return o.issue ?? 201;
  });
}

beforeAll(async () => {
  w = await createWorld({
    SITE_NAME: 'Campus Checks',
    SITE_ROOT: 'https://checks.example.org',
    GITHUB_CLIENT_ID: CLIENT_ID,
    GITHUB_PRIVATE_KEY: privateKey,
    INTEGRATION_BASE_URLS: JSON.stringify({ github: `${receiver.url}/gh` }),
  });
});
afterAll(() => w?.stop());

describe('github: the settings and the value', () => {
  it('reads the private key, a one-line "\\n" form too, and refuses one that is no key', () => {
    const oneLine = privateKey.replaceAll('\n', '\\n');
    expect(loadConfig({ GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_PRIVATE_KEY: oneLine }).notify.github).toEqual({ clientId: CLIENT_ID, privateKey });
    expect(() => loadConfig({ GITHUB_PRIVATE_KEY: 'not a key' })).toThrow(/GITHUB_PRIVATE_KEY.*private key in PEM form/);
  });

  it('takes Healthchecks’ JSON, and sends down alerts only', () => {
    expect(validateChannelInput({ kind: 'github', value: conf() })).toMatchObject({ kind: 'github', notifyDown: true, notifyUp: false });
    expect(validateChannelInput({ kind: 'github', value: conf({ labels: [] }) })).toMatchObject({ kind: 'github' });
  });

  it('refuses what is not Healthchecks’ GitHubConf', () => {
    const cases: Array<[string, string]> = [
      ['alice/foo', 'value must be {"installation_id": <number>, "repo": "owner/name", "labels": ["…"]}'],
      [conf({ installation_id: '123' }), 'installation_id must be a whole number (the GitHub App installation’s id)'],
      [conf({ repo: 'alice' }), 'repo must be "owner/name"'],
      [conf({ repo: 'alice/foo/../bar' }), 'repo must be "owner/name"'],
      [conf({ labels: 'foo' }), 'labels must be a list of texts (may be empty)'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'github', value })), value).toBe(message);
  });
});

describe('github: the issue', () => {
  it('gets an installation token with the app’s signed JWT, then opens the issue of github_body.html', async () => {
    github();
    const c = await incidentCheck(w, 'github', conf(), { name: 'DB <Backup>', tags: 'foo bar baz' });
    await w.ping(`/ping/${c.uuid}`, { method: 'POST', body: 'Hello <World>' });
    const before = Math.floor(Date.now() / 1000);
    await c.down();
    const [token, issue] = await receiver.waitFor(2);
    expect(token).toMatchObject({ method: 'POST', path: '/gh/app/installations/123/access_tokens' });
    const claims = verifiedClaims(token!.headers.authorization)!;
    expect(claims.iss).toBe(CLIENT_ID);
    // Dated by the wall clock (GitHub checks it against its own), valid ten minutes.
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp).toBe((claims.iat as number) + 600);
    expect(issue).toMatchObject({ method: 'POST', path: '/gh/repos/alice/foo/issues' });
    expect(issue!.headers.authorization).toBe('Bearer ghs_installation');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    expect(JSON.parse(issue!.body)).toEqual({
      title: 'DB <Backup> is DOWN',
      labels: ['foo', 'bar'],
      body: [
        `The check [DB &lt;Backup&gt;](${link}) is **DOWN** (success signal did not arrive on time, grace time passed).`,
        '',
        '**Project:** Alice',
        '**Tags:** `foo` `bar` `baz` ',
        '**Period:** 1 minute',
        '**Total Pings:** 2',
        '**Last Ping:** Success, 2 minutes ago',
        '**Last Ping Body:**',
        '<pre>Hello &lt;World&gt;</pre>',
      ].join('\n'),
    });
    expect(issue!.body).not.toContain(c.uuid);
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'sent' }]);
    // Up: nothing (Healthchecks' is_noop), nothing queued.
    await c.up();
    expect(receiver.requests).toHaveLength(2);
  });

  it('says "GitHub denied access to <repo>" when the installation is gone (404), and tries again later', async () => {
    github({ token: () => ({ status: 404, body: '{"message": "Not Found"}' }) });
    const c = await incidentCheck(w, 'github', conf());
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ state: 'pending', lastError: 'GitHub denied access to alice/foo' }]);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/gh/app/installations/123/access_tokens']);
  });

  it('fails for good on a 410 for the issue, and retries other refusals', async () => {
    github({ issue: 410 });
    const gone = await incidentCheck(w, 'github', conf());
    await gone.down();
    expect(await notificationsOf(w, gone.channel.id)).toMatchObject([{ state: 'failed', lastError: 'Received status code 410' }]);
    github({ issue: 422 });
    const refused = await incidentCheck(w, 'github', conf());
    await refused.down();
    expect(await notificationsOf(w, refused.channel.id)).toMatchObject([{ state: 'pending', lastError: 'Received status code 422' }]);
  });
});

describe('github: without the app', () => {
  it('is refused for good, and nothing is sent', async () => {
    const off = await createWorld({ INTEGRATION_BASE_URLS: JSON.stringify({ github: `${receiver.url}/gh` }) });
    try {
      const c = await incidentCheck(off, 'github', conf());
      await c.down();
      expect(await notificationsOf(off, c.channel.id)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'GitHub notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await off.stop();
    }
  });
});
