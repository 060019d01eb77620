// The outbox delivers it once across a kill -9, for every channel kind that speaks HTTP (issue
// #27). One gateway process sends every kind to one local receiver (INTEGRATION_BASE_URLS gives
// each kind a path of its own); the receiver holds every request unanswered, so the process is
// killed with SIGKILL while each kind's alert is in flight. A second process on the same
// database takes the alerts over once the dead one's leases run out, the receiver now answering:
// each kind's message arrives, carries the notification's id both times, and is answered
// successfully once. Repeating the request that was in flight at the kill is the documented
// at-least-once at the crash point; anything beyond that would be a duplicate.
//
// The kinds come from the registry: a kind that speaks HTTP without a sample value below, or one
// that does not without a stated reason, fails the first test.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleServer, startGatewayProcess, type GatewayProcess, type ServerBundle } from '../helpers/gateway-process.ts';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest, type ReceiverAnswer } from '../helpers/receivers.ts';
import { CHANNEL_KIND_DEFINITIONS } from '../../src/monitoring/integrations/kinds/index.ts';
import { openDb } from '../../src/db/client.ts';
import { createProject } from '../../src/monitoring/projects/service.ts';

/** A valid value per kind that speaks HTTP, as each kind's own tests take it (test/monitoring/integrations/kinds/<kind>/). */
const SAMPLES: Record<string, string> = {
  webhook: 'https://hooks.example.org/down',
  sms: '+15557654321',
  slack: 'https://hooks.slack.com/services/T0/B0/xyz',
  mattermost: 'https://chat.example.org/hooks/abc',
  rocketchat: 'https://chat.example.org/hooks/rc',
  discord: 'https://discord.com/api/webhooks/1/abc',
  pagerduty: 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4',
  opsgenie: JSON.stringify({ region: 'us', key: 'og-key-123' }),
  victorops: 'https://alert.victorops.com/integrations/generic/20131114/alert/api-key/routing-key',
  pagertree: 'https://api.pagertree.com/integration/int_abc123',
  spike: 'https://hooks.spike.sh/abc123/push-events',
  ntfy: JSON.stringify({ priority: 5, priority_up: 3, token: '', topic: 'campus-alerts', url: 'https://ntfy.sh' }),
  pushover: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG|0|-1',
  pushbullet: 'o.AbCdEf123',
  gotify: JSON.stringify({ priority: 9, priority_up: 2, token: 'AbC.d3f', url: 'https://gotify.example.org' }),
  msteams: 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s',
  googlechat: 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t',
  zulip: JSON.stringify({ api_key: 'fake-key', bot_email: 'bot@example.zulipchat.com', mtype: 'stream', site: 'https://example.zulipchat.com', to: 'general', topic: '' }),
  telegram: JSON.stringify({ id: -1001000, type: 'group', name: 'Ops' }),
  whatsapp: '+15557654321',
  call: '+15557654321',
  matrix: '!abcDEF123:example.org',
  apprise: 'json://hooks.example.org/alerts',
  github: JSON.stringify({ installation_id: 123, repo: 'alice/foo', labels: ['ops'] }),
  trello: JSON.stringify({ board_name: 'Ops', list_id: '5f0c1a2b3c4d5e6f7a8b9c0d', list_name: 'Incidents', token: 'member-token' }),
};

/** The kinds that do not speak HTTP (overHttp: false), and why this test leaves them out. */
const NOT_OVER_HTTP: Record<string, string> = {
  email: 'SMTP, not HTTP: its crash recovery is the SMTP sink’s (test/monitoring/notifications)',
  signal: 'a JSON-RPC socket of signal-cli, not HTTP',
  shell: 'runs a command on this host, no peer to hold',
  group: 'sends nothing itself: covered here through a member (a webhook) its alert is queued for',
};

/** The path under which the group's member (a webhook assigned only through the group) is received. */
const GROUP_MEMBER_PATH = '/webhook/group-member';

const HTTP_KINDS = CHANNEL_KIND_DEFINITIONS.filter((d) => d.overHttp !== false).map((d) => d.kind as string);
const tested = HTTP_KINDS.filter((k) => k in SAMPLES);
/** What the receiver tells apart: each HTTP kind by its base path, and the group by its member's path. */
const expected = [...tested, 'group'];

/** The kind a request was sent for: the first path segment is its INTEGRATION_BASE_URLS path. */
function kindOf(req: ReceivedRequest): string {
  if (req.path.startsWith(`${GROUP_MEMBER_PATH}`)) return 'group';
  return req.path.split('/')[1] ?? '';
}

/** Steps before the message itself: GitHub's installation token, Matrix's room join. */
const isPreliminary = (req: ReceivedRequest) => req.path.endsWith('/access_tokens') || /\/_matrix\/client\/v3\/join\//.test(req.path);

/** The answers a healthy service gives: a token, a room id, or a plain success. */
function healthy(req: ReceivedRequest): ReceiverAnswer {
  if (req.path.endsWith('/access_tokens')) return { status: 201, body: '{"token": "ghs_installation", "expires_at": "2030-01-01T00:00:00Z"}' };
  if (/\/join\//.test(req.path)) return { status: 200, body: '{"room_id": "!abcDEF123:example.org"}' };
  return { status: 200, body: '{"ok": true}' };
}

// The attempt's time limit: long enough that no held request times out in the first process
// before the kill, short enough that its leases (3 × limit + 2 s) run out soon after the restart.
const TIMEOUT_MS = 2_000;

let bundle: ServerBundle;
let receiver: HttpReceiver;
let dir: string;
let env: Record<string, string>;
let gateway: GatewayProcess | undefined;
let apiKey: string;
let opened: ReturnType<typeof openDb> | undefined;

beforeAll(async () => {
  [bundle, receiver] = await Promise.all([bundleServer(), startHttpReceiver()]);
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-every-kind-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  env = {
    DATABASE_URL: `file:${path.join(dir, 'gateway.db')}`,
    SITE_ROOT: 'https://checks.example.org',
    NOTIFY_TIMEOUT_MS: String(TIMEOUT_MS),
    NOTIFY_RETRY_BASE_MS: '1000',
    INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True',
    INTEGRATION_BASE_URLS: JSON.stringify(Object.fromEntries(tested.map((k) => [k, `${receiver.url}/${k}`]))),
    // What each kind needs to be offered (the *_ENABLED switches are on by default).
    TELEGRAM_TOKEN: '123456:ABC-token',
    PUSHOVER_API_TOKEN: 'po-app-token',
    TWILIO_ACCOUNT: 'AC123',
    TWILIO_AUTH: 'secret',
    TWILIO_FROM: '+15550001111',
    TWILIO_USE_WHATSAPP: 'True',
    TWILIO_MESSAGING_SERVICE_SID: 'MG42',
    WHATSAPP_DOWN_CONTENT_SID: 'HXdown',
    WHATSAPP_UP_CONTENT_SID: 'HXup',
    MATRIX_HOMESERVER: 'https://matrix.example.org',
    MATRIX_USER_ID: '@checks-bot:example.org',
    MATRIX_ACCESS_TOKEN: 'syt_bot_token',
    APPRISE_ENABLED: 'True',
    APPRISE_API_URL: 'https://apprise.example.org',
    GITHUB_CLIENT_ID: 'Iv1.campus0123',
    GITHUB_PRIVATE_KEY: privateKey,
    TRELLO_APP_KEY: 'trello-app-key',
  };
  gateway = await startGatewayProcess(bundle, env);
  opened = openDb(env.DATABASE_URL!);
  apiKey = (await createProject(opened.db, { name: 'Every kind' })).api_key;
}, 90_000);

afterAll(async () => {
  await gateway?.kill9();
  await opened?.db.$disconnect();
  await receiver?.close();
  bundle?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function createChannel(kind: string, value: string): Promise<string> {
  const res = await fetch(`${gateway!.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': apiKey },
    body: JSON.stringify({ query: 'mutation($kind: ChannelKind!, $value: String!) { createChannel(kind: $kind, value: $value) { uuid } }', variables: { kind: kind.toUpperCase(), value } }),
  });
  const doc = (await res.json()) as { data?: { createChannel: { uuid: string } }; errors?: unknown };
  if (!doc.data?.createChannel) throw new Error(`createChannel ${kind}: ${JSON.stringify(doc.errors)}`);
  return doc.data.createChannel.uuid;
}

it('has a sample value for every kind that speaks HTTP, and a reason for leaving out each that does not', () => {
  expect(HTTP_KINDS.filter((k) => !(k in SAMPLES)), 'kinds without a sample value in SAMPLES').toEqual([]);
  expect(Object.keys(SAMPLES).filter((k) => !HTTP_KINDS.includes(k)), 'samples for no HTTP kind').toEqual([]);
  const notHttp = CHANNEL_KIND_DEFINITIONS.filter((d) => d.overHttp === false).map((d) => d.kind as string);
  expect(notHttp.sort()).toEqual(Object.keys(NOT_OVER_HTTP).sort());
});

it('delivers every kind’s alert that was in flight at a SIGKILL once after the restart, with the same notification id', async () => {
  const headers = { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' };
  // One channel of each kind; the group's member is a webhook assigned through the group alone.
  const codes = await Promise.all(tested.map((k) => createChannel(k, SAMPLES[k]!)));
  const member = await createChannel('webhook', `https://hooks.example.org${GROUP_MEMBER_PATH.slice('/webhook'.length)}`);
  codes.push(await createChannel('group', member));
  const created = await fetch(`${gateway!.url}/api/v3/checks/`, { method: 'POST', headers, body: JSON.stringify({ name: 'backup', channels: codes.join(',') }) });
  expect(created.status).toBe(201);
  const { uuid } = (await created.json()) as { uuid: string };

  receiver.hold();
  await fetch(`${gateway!.url}/ping/${uuid}`);
  expect(await (await fetch(`${gateway!.url}/ping/${uuid}/fail`)).text()).toBe('OK');
  // Every kind's first request is held: all are in flight when the process dies.
  const seen = () => new Set(receiver.requests.map(kindOf));
  for (let n = expected.length; !expected.every((k) => seen().has(k)); n = receiver.requests.length + 1) {
    await receiver.waitFor(n, TIMEOUT_MS).catch(() => {
      throw new Error(`in flight before the kill: ${[...seen()].sort().join(', ')}; missing: ${expected.filter((k) => !seen().has(k)).join(', ')}\n${gateway!.output()}`);
    });
  }
  await gateway!.kill9();
  const beforeRestart = receiver.requests.length;
  // Killed mid-attempt: every alert is still pending, its first attempt started and never ended.
  const atKill = await opened!.db.notification.findMany({ include: { channel: { select: { kind: true } } } });
  expect(atKill.map((n) => `${n.channel?.kind}: ${n.state} ${n.attempts} ${n.lastAttemptAt ? 'ended' : 'running'}`)).toEqual(atKill.map((n) => `${n.channel?.kind}: pending 1 running`));

  // Lets the requests of the dead process go (their connections are gone: nobody reads the answer).
  receiver.release();
  const succeeded: ReceivedRequest[] = [];
  receiver.respond((req) => {
    const answer = healthy(req);
    if (!isPreliminary(req)) succeeded.push(req);
    return answer;
  });
  gateway = await startGatewayProcess(bundle, env);

  // Every notification is settled (sent or failed) when none is pending in the database.
  await expect
    .poll(async () => (await opened!.db.notification.findMany({ where: { state: 'pending' } })).length, { timeout: 40_000, interval: 200 })
    .toBe(0);

  const notifications = await opened!.db.notification.findMany({ include: { channel: { select: { kind: true } } } });
  expect(notifications).toHaveLength(expected.length);
  expect(notifications.filter((n) => n.state !== 'sent').map((n) => `${n.channel?.kind}: ${n.lastError}`)).toEqual([]);

  const messages = receiver.requests.filter((r) => !isPreliminary(r));
  const byKind = (list: ReceivedRequest[], kind: string) => list.filter((r) => kindOf(r) === kind);
  for (const kind of expected) {
    const all = byKind(messages, kind);
    const ids = new Set(all.map((r) => r.headers['idempotency-key']));
    // One notification per kind: every request carries its id; at most the held one and its repeat.
    expect(ids.size, `${kind}: notification ids`).toBe(1);
    expect([...ids][0], `${kind}: the id is the notification's code`).toMatch(/^[0-9a-f-]{36}$/);
    expect(all.length, `${kind}: arrivals`).toBeLessThanOrEqual(2);
    expect(byKind(succeeded, kind), `${kind}: successful answers`).toHaveLength(1);
    expect(byKind(receiver.requests.slice(beforeRestart), kind).length, `${kind}: requests after the restart`).toBeGreaterThanOrEqual(1);
  }
  // Nothing arrives for a kind the test does not know.
  expect(receiver.requests.filter((r) => !expected.includes(kindOf(r))).map((r) => r.path)).toEqual([]);
}, 90_000);
