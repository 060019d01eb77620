// Notification channels over GraphQL: create, update, test, delete; the notifications a real
// flip sends, as Check.notifications, Channel.notifications and the notificationOutcomes
// subscription show them; the project's repeat-alert period. Deliveries go to real local
// receivers (HTTP and SMTP).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from '../helpers/receivers.ts';
import { inProcess, type Query } from './in-process.ts';
import type { GqlResult } from '../helpers/gql.ts';
import { createProject, type CreatedProject } from '../../src/monitoring/projects/service.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';

let receiver: HttpReceiver;
beforeAll(async () => {
  receiver = await startHttpReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond(200);
});

const SIDE = 'method url body headers { name value }';
const FIELDS = `uuid name kind target notifyDown notifyUp disabled webhook { down { ${SIDE} } up { ${SIDE} } }`;
const CREATE = `mutation($kind: ChannelKind!, $value: String, $webhook: WebhookSpecInput, $name: String, $notifyDown: Boolean, $notifyUp: Boolean) {
  createChannel(kind: $kind, value: $value, webhook: $webhook, name: $name, notifyDown: $notifyDown, notifyUp: $notifyUp) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $value: String, $webhook: WebhookSpecInput, $name: String, $notifyDown: Boolean, $notifyUp: Boolean, $disabled: Boolean) {
  updateChannel(id: $id, value: $value, webhook: $webhook, name: $name, notifyDown: $notifyDown, notifyUp: $notifyUp, disabled: $disabled) { ${FIELDS} } }`;
const TEST = 'mutation($id: ID!) { testChannel(id: $id) { ok state error durationMs notification { uuid reason status state attempts error sentAt nextAttemptAt check { uuid } channel { uuid } } } }';
const DELETE = 'mutation($id: ID!) { deleteChannel(id: $id) }';
const SET_NAG = 'mutation($s: Int) { setNagPeriod(seconds: $s) }';

/** The one error of a response, as `[message, code]`. */
const failure = (r: GqlResult) => {
  expect(r.errors, JSON.stringify(r)).toHaveLength(1);
  return [r.errors![0]!.message, r.errors![0]!.extensions?.code];
};

/** A world with alice's GraphQL (rw key by default) and a helper to create channels through it. */
async function graphqlWorld(env: Record<string, string> = {}) {
  const w = await createWorld(env);
  const q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  const create = async (vars: Record<string, unknown>, key?: string) => {
    const r = await q(CREATE, vars, key);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data.createChannel as { uuid: string; [k: string]: unknown };
  };
  const row = (code: string) => w.app.db.channel.findUnique({ where: { code } });
  return { w, q, create, row };
}

const FULL_SPEC = {
  down: { method: 'POST', url: 'https://hooks.example.org/down/$CODE', body: '{"check":"$NAME","status":"$STATUS"}', headers: [{ name: 'X-Token', value: 's3cret' }, { name: 'Content-Type', value: 'application/json' }] },
  up: { method: 'GET', url: 'https://hooks.example.org/up?c=$CODE' },
};

describe('channels over GraphQL', () => {
  let g: Awaited<ReturnType<typeof graphqlWorld>>;
  beforeAll(async () => {
    // Telegram and Pushover are offered only with their settings (channel-kinds-offered.test.ts).
    g = await graphqlWorld({ TELEGRAM_TOKEN: '123:abc', PUSHOVER_API_TOKEN: 'po-app-token' });
  });
  afterAll(() => g.w.stop());

  describe('createChannel', () => {
    it('creates a channel of every kind in the key’s project, value as target', async () => {
      const valid = {
        EMAIL: 'ops@example.org',
        WEBHOOK: 'https://hooks.example.org/x',
        SMS: '+15551234567',
        SLACK: 'https://hooks.slack.com/services/T0/B0/x',
        MATTERMOST: 'https://mm.example.org/hooks/abc',
        ROCKETCHAT: 'https://rocket.example.org/hooks/abc/def',
        DISCORD: 'https://discord.com/api/webhooks/1/abc',
        PAGERDUTY: 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4',
        OPSGENIE: '{"region":"eu","key":"og-key"}',
        VICTOROPS: 'https://alert.victorops.com/integrations/generic/20131114/alert/k/r',
        PAGERTREE: 'https://api.pagertree.com/integration/int_abc',
        SPIKE: 'https://hooks.spike.sh/abc/push-events',
        NTFY: '{"priority":5,"priority_up":3,"token":"","topic":"alerts","url":"https://ntfy.sh"}',
        PUSHOVER: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG|0|-1',
        PUSHBULLET: 'o.pushbullet-access-token',
        GOTIFY: '{"priority":5,"priority_up":5,"token":"AbCdEf","url":"https://gotify.example.org"}',
        MSTEAMS: 'https://example.logic.azure.com/workflows/abc/triggers/manual/paths/invoke',
        GOOGLECHAT: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t',
        ZULIP: '{"api_key":"fake-key","bot_email":"bot@example.zulipchat.com","mtype":"stream","site":"https://example.zulipchat.com","to":"general","topic":""}',
        TELEGRAM: '{"id":-1001234567890,"type":"group","name":"Ops"}',
      };
      for (const [kind, value] of Object.entries(valid)) {
        const c = await g.create({ kind, value, name: `${kind} channel` });
        expect(c).toEqual({
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: `${kind} channel`, kind, target: value,
          notifyDown: true, notifyUp: true, disabled: false, webhook: null,
        });
        expect(await g.row(c.uuid)).toMatchObject({ projectId: g.w.alice.id, kind: kind.toLowerCase(), value, name: `${kind} channel`, notifyDown: true, notifyUp: true, disabled: false });
      }
    });

    it('refuses bad input with BAD_USER_INPUT and the domain’s message, storing nothing', async () => {
      const before = await g.w.app.db.channel.count();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ kind: 'EMAIL', value: 'not-an-address' }, 'value is not a valid email address'],
        [{ kind: 'EMAIL' }, 'value must not be empty'],
        [{ kind: 'SMS', value: '555-1234' }, 'value is not a valid phone number (E.164, e.g. +15551234567)'],
        [{ kind: 'SLACK', value: 'hooks.slack.com/services/x' }, 'value is not a valid http(s) URL'],
        [{ kind: 'WEBHOOK', value: 'ftp://example.org/x' }, 'value is not a valid http(s) URL'],
        [{ kind: 'EMAIL', value: 'a@b.co', name: 'n'.repeat(101) }, 'name is too long'],
        [{ kind: 'EMAIL', value: 'a@b.co', notifyDown: false, notifyUp: false }, 'a channel must notify of down, up or both'],
        [{ kind: 'WEBHOOK', webhook: {} }, 'a webhook needs a url for down, for up, or both'],
        [{ kind: 'WEBHOOK', webhook: { down: { url: 'https://x.example.org', method: 'DELETE' } } }, 'down: method must be one of GET, POST, PUT'],
        [{ kind: 'WEBHOOK', webhook: { up: { url: 'mailto:a@b.co' } } }, 'up: url is not a valid http(s) URL'],
        [{ kind: 'WEBHOOK', webhook: { down: { url: 'https://x.example.org' }, up: { url: '', body: 'hi' } } }, 'up: a body needs a url'],
        [{ kind: 'WEBHOOK', webhook: { down: { url: 'https://x.example.org', headers: [{ name: 'Bad Name', value: '1' }] } } }, 'down: invalid header name: Bad Name'],
        [{ kind: 'WEBHOOK', webhook: { down: { url: 'https://x.example.org', headers: [{ name: 'X-A', value: 'a\r\nX-B: 1' }] } } }, 'down: invalid value for header X-A'],
        [{ kind: 'WEBHOOK', value: 'https://x.example.org', webhook: { down: { url: 'https://x.example.org' } } }, 'give either a value (URL) or a webhook spec, not both'],
        [{ kind: 'SLACK', webhook: { down: { url: 'https://x.example.org' } } }, 'a webhook spec is only for webhook channels'],
      ];
      for (const [vars, message] of cases) {
        expect(failure(await g.q(CREATE, vars)), JSON.stringify(vars)).toEqual([message, 'BAD_USER_INPUT']);
      }
      expect(await g.w.app.db.channel.count()).toBe(before);
    });

    it('leaves an unknown kind to GraphQL’s enum check', async () => {
      const r = await g.q(CREATE, { kind: 'PAGER', value: 'x' });
      expect(r.errors![0]!.message).toMatch(/ChannelKind/);
    });

    it('round-trips a webhook spec, headers in order; target is null', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: FULL_SPEC, name: 'spec hook' });
      expect(c).toMatchObject({
        kind: 'WEBHOOK', target: null, notifyDown: true, notifyUp: true,
        webhook: {
          down: FULL_SPEC.down,
          up: { method: 'GET', url: FULL_SPEC.up.url, body: '', headers: [] },
        },
      });
      // Stored as Healthchecks stores it.
      expect(JSON.parse((await g.row(c.uuid))!.value)).toEqual({
        method_down: 'POST', url_down: FULL_SPEC.down.url, body_down: FULL_SPEC.down.body, headers_down: { 'X-Token': 's3cret', 'Content-Type': 'application/json' },
        method_up: 'GET', url_up: FULL_SPEC.up.url, body_up: '', headers_up: {},
      });
    });

    it('derives the notify flags from the spec: a side without a url is not notified', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: { down: { url: 'https://hooks.example.org/d', body: 'x' } } });
      expect(c).toMatchObject({ notifyDown: true, notifyUp: false, webhook: { down: { method: 'POST', body: 'x' }, up: { method: 'GET', url: '', body: '', headers: [] } } });
    });

    it('keeps a bare URL webhook as a target with no spec', async () => {
      const c = await g.create({ kind: 'WEBHOOK', value: 'https://hooks.example.org/bare', notifyUp: false });
      expect(c).toMatchObject({ target: 'https://hooks.example.org/bare', webhook: null, notifyDown: true, notifyUp: false });
    });

    it('refuses read-only keys with UNAUTHENTICATED, storing nothing', async () => {
      const before = await g.w.app.db.channel.count();
      const r = await g.q(CREATE, { kind: 'EMAIL', value: 'ro@example.org' }, g.w.alice.api_key_readonly);
      expect(failure(r)).toEqual(['wrong api key', 'UNAUTHENTICATED']);
      expect(await g.w.app.db.channel.count()).toBe(before);
    });

    it('leaves REST’s channel list as Healthchecks’ {"channels":[{"id","name","kind"}]}', async () => {
      const key = g.w.bob.api_key;
      const spec = await g.create({ kind: 'WEBHOOK', webhook: FULL_SPEC, name: 'Bob hook' }, key);
      const sms = await g.create({ kind: 'SMS', value: '+15557654321', name: 'Bob phone' }, key);
      const r = await g.w.api('GET', '/api/v3/channels/', { key });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toStrictEqual({
        channels: [
          { id: spec.uuid, name: 'Bob hook', kind: 'webhook' },
          { id: sms.uuid, name: 'Bob phone', kind: 'sms' },
        ],
      });
    });
  });

  describe('updateChannel', () => {
    it('renames a spec webhook, keeping its spec and notify flags', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: FULL_SPEC, name: 'before', notifyUp: false });
      expect(c).toMatchObject({ notifyDown: true, notifyUp: false });
      const r = await g.q(UPDATE, { id: c.uuid, name: 'after' });
      expect(r.errors).toBeUndefined();
      expect(r.data.updateChannel).toEqual({ ...c, name: 'after' });
      const stored = (await g.row(c.uuid))!;
      expect(stored).toMatchObject({ name: 'after', notifyDown: true, notifyUp: false });
      expect(JSON.parse(stored.value).headers_down).toEqual({ 'X-Token': 's3cret', 'Content-Type': 'application/json' });
    });

    it('replaces the whole spec; a side left out sends nothing', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: FULL_SPEC });
      const r = await g.q(UPDATE, { id: c.uuid, webhook: { up: { url: 'https://new.example.org/up', method: 'PUT', body: '$STATUS', headers: [{ name: 'X-New', value: '1' }] } } });
      expect(r.errors).toBeUndefined();
      expect(r.data.updateChannel).toMatchObject({
        target: null, notifyDown: false, notifyUp: true,
        webhook: {
          down: { method: 'GET', url: '', body: '', headers: [] },
          up: { method: 'PUT', url: 'https://new.example.org/up', body: '$STATUS', headers: [{ name: 'X-New', value: '1' }] },
        },
      });
      expect(JSON.parse((await g.row(c.uuid))!.value)).toMatchObject({ url_down: '', url_up: 'https://new.example.org/up', method_up: 'PUT' });
    });

    it('keeps a flag turned off while its side keeps a URL; a side that gains one is notified', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: { down: { url: 'https://a.example.org/d' }, up: { url: 'https://a.example.org/u' } }, notifyUp: false });
      const moved = await g.q(UPDATE, { id: c.uuid, webhook: { down: { url: 'https://b.example.org/d' }, up: { url: 'https://b.example.org/u' } } });
      expect(moved.data.updateChannel).toMatchObject({ notifyDown: true, notifyUp: false, webhook: { up: { url: 'https://b.example.org/u' } } });
      const downOnly = await g.create({ kind: 'WEBHOOK', webhook: { down: { url: 'https://a.example.org/d' } } });
      expect(downOnly).toMatchObject({ notifyDown: true, notifyUp: false });
      const gained = await g.q(UPDATE, { id: downOnly.uuid, webhook: { down: { url: 'https://a.example.org/d' }, up: { url: 'https://a.example.org/u' } } });
      expect(gained.data.updateChannel).toMatchObject({ notifyDown: true, notifyUp: true });
      expect(await g.row(downOnly.uuid)).toMatchObject({ notifyDown: true, notifyUp: true });
    });

    it('switches a webhook between a spec and a bare URL', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: { down: { url: 'https://a.example.org/' } } });
      const bare = await g.q(UPDATE, { id: c.uuid, value: 'https://bare.example.org/' });
      expect(bare.data.updateChannel).toMatchObject({ target: 'https://bare.example.org/', webhook: null, notifyDown: true, notifyUp: true });
      expect((await g.row(c.uuid))!.value).toBe('https://bare.example.org/');
      const back = await g.q(UPDATE, { id: c.uuid, webhook: { up: { url: 'https://b.example.org/' } } });
      expect(back.data.updateChannel).toMatchObject({ target: null, webhook: { up: { url: 'https://b.example.org/' } }, notifyDown: false, notifyUp: true });
    });

    it('keeps a bare URL webhook’s notify flags when its URL changes', async () => {
      const c = await g.create({ kind: 'WEBHOOK', value: 'https://one.example.org/', notifyUp: false });
      const r = await g.q(UPDATE, { id: c.uuid, value: 'https://two.example.org/' });
      expect(r.data.updateChannel).toMatchObject({ target: 'https://two.example.org/', notifyDown: true, notifyUp: false });
      expect(await g.row(c.uuid)).toMatchObject({ value: 'https://two.example.org/', notifyUp: false });
    });

    it('refuses a value and a spec together, changing nothing', async () => {
      const c = await g.create({ kind: 'WEBHOOK', value: 'https://keep.example.org/' });
      const r = await g.q(UPDATE, { id: c.uuid, value: 'https://x.example.org/', webhook: { down: { url: 'https://y.example.org/' } } });
      expect(failure(r)).toEqual(['give either a value (URL) or a webhook spec, not both', 'BAD_USER_INPUT']);
      expect((await g.row(c.uuid))!.value).toBe('https://keep.example.org/');
    });

    it('disables and enables a channel, keeping everything else', async () => {
      const c = await g.create({ kind: 'EMAIL', value: 'dis@example.org', name: 'dis' });
      const off = await g.q(UPDATE, { id: c.uuid, disabled: true });
      expect(off.data.updateChannel).toEqual({ ...c, disabled: true });
      expect((await g.row(c.uuid))!.disabled).toBe(true);
      const on = await g.q(UPDATE, { id: c.uuid, disabled: false });
      expect(on.data.updateChannel).toEqual(c);
      expect((await g.row(c.uuid))!.disabled).toBe(false);
    });

    it('changes notify flags, refusing to turn both off', async () => {
      const c = await g.create({ kind: 'SMS', value: '+15550001111' });
      const r = await g.q(UPDATE, { id: c.uuid, notifyUp: false });
      expect(r.data.updateChannel).toMatchObject({ notifyDown: true, notifyUp: false, target: '+15550001111' });
      // Unrelated changes keep the flags.
      await g.q(UPDATE, { id: c.uuid, name: 'phone' });
      expect(await g.row(c.uuid)).toMatchObject({ name: 'phone', notifyDown: true, notifyUp: false });
      expect(failure(await g.q(UPDATE, { id: c.uuid, notifyDown: false }))).toEqual(['a channel must notify of down, up or both', 'BAD_USER_INPUT']);
      expect(await g.row(c.uuid)).toMatchObject({ notifyDown: true, notifyUp: false });
      const flipped = await g.q(UPDATE, { id: c.uuid, notifyDown: false, notifyUp: true });
      expect(flipped.data.updateChannel).toMatchObject({ notifyDown: false, notifyUp: true });
    });

    it('refuses an invalid new value with the domain’s message', async () => {
      const c = await g.create({ kind: 'EMAIL', value: 'stay@example.org' });
      expect(failure(await g.q(UPDATE, { id: c.uuid, value: 'nope' }))).toEqual(['value is not a valid email address', 'BAD_USER_INPUT']);
      expect((await g.row(c.uuid))!.value).toBe('stay@example.org');
    });

    it('does not find another project’s channel, and changes nothing of it', async () => {
      const bobs = await g.create({ kind: 'EMAIL', value: 'bob@example.org', name: 'bobs' }, g.w.bob.api_key);
      for (const [doc, vars] of [[UPDATE, { id: bobs.uuid, name: 'hijacked', disabled: true }], [DELETE, { id: bobs.uuid }], [TEST, { id: bobs.uuid }]] as const) {
        expect(failure(await g.q(doc, vars))).toEqual([`channel not found: ${bobs.uuid}`, 'NOT_FOUND']);
      }
      expect(await g.row(bobs.uuid)).toMatchObject({ name: 'bobs', disabled: false });
      expect(await g.w.app.db.notification.count({ where: { channel: { code: bobs.uuid } } })).toBe(0);
      expect(failure(await g.q(UPDATE, { id: '00000000-0000-4000-8000-000000000000', name: 'x' }))[1]).toBe('NOT_FOUND');
    });

    it('refuses read-only keys with UNAUTHENTICATED for every channel mutation', async () => {
      const c = await g.create({ kind: 'EMAIL', value: 'ro-target@example.org', name: 'ro' });
      const ro = g.w.alice.api_key_readonly;
      for (const [doc, vars] of [[UPDATE, { id: c.uuid, name: 'x' }], [DELETE, { id: c.uuid }], [TEST, { id: c.uuid }], [SET_NAG, { s: 3600 }]] as const) {
        expect(failure(await g.q(doc, vars, ro)), doc).toEqual(['wrong api key', 'UNAUTHENTICATED']);
      }
      expect(await g.row(c.uuid)).toMatchObject({ name: 'ro' });
      expect(await g.w.app.db.notification.count({ where: { channel: { code: c.uuid } } })).toBe(0);
    });
  });

  describe('testChannel', () => {
    it('delivers a bare URL webhook test now, keyed by the notification id', async () => {
      const c = await g.create({ kind: 'WEBHOOK', value: `${receiver.url}/bare` });
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.errors).toBeUndefined();
      const result = r.data.testChannel;
      expect(result).toMatchObject({
        ok: true, state: 'SENT', error: '',
        notification: { reason: 'TEST', status: 'DOWN', state: 'SENT', attempts: 1, error: '', sentAt: T0.toISOString(), nextAttemptAt: null, check: null, channel: { uuid: c.uuid } },
      });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      expect(receiver.requests).toHaveLength(1);
      const [req] = receiver.requests;
      expect(req).toMatchObject({ method: 'POST', path: '/bare' });
      expect(req!.headers['idempotency-key']).toBe(result.notification.uuid);
      expect(JSON.parse(req!.body)).toMatchObject({ id: result.notification.uuid, event: 'test', status: 'down', check: expect.objectContaining({ name: 'TEST' }) });
      expect(await g.w.app.db.notification.findUnique({ where: { code: result.notification.uuid } })).toMatchObject({ reason: 'test', checkId: null, state: 'sent', attempts: 1 });
    });

    it('sends the spec’s down request with its method, headers and placeholders filled in', async () => {
      const c = await g.create({
        kind: 'WEBHOOK',
        webhook: { down: { method: 'PUT', url: `${receiver.url}/down/$STATUS`, body: '{"name":"$NAME","status":"$STATUS"}', headers: [{ name: 'X-Token', value: 's3cret' }, { name: 'X-Check', value: '$NAME' }] } },
      });
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.data.testChannel).toMatchObject({ ok: true, state: 'SENT' });
      expect(receiver.requests).toHaveLength(1);
      const [req] = receiver.requests;
      expect(req).toMatchObject({ method: 'PUT', path: '/down/down', body: '{"name":"TEST","status":"down"}' });
      expect(req!.headers).toMatchObject({ 'x-token': 's3cret', 'x-check': 'TEST', 'idempotency-key': r.data.testChannel.notification.uuid });
    });

    it('tests an up-only webhook with its up request', async () => {
      const c = await g.create({ kind: 'WEBHOOK', webhook: { up: { url: `${receiver.url}/up?s=$STATUS` } } });
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.data.testChannel).toMatchObject({ ok: true, notification: { status: 'UP' } });
      expect(receiver.requests.map((x) => [x.method, x.path])).toEqual([['GET', '/up?s=up']]);
    });

    it('reports a receiver’s 500 as a failure, without retrying it', async () => {
      receiver.respond(500);
      const c = await g.create({ kind: 'WEBHOOK', value: `${receiver.url}/broken` });
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.data.testChannel).toMatchObject({
        ok: false, state: 'FAILED', error: 'Received status code 500',
        notification: { state: 'FAILED', attempts: 1, error: 'Received status code 500', sentAt: null, nextAttemptAt: null },
      });
      expect(receiver.requests).toHaveLength(1);
      // Nothing is left for the notifier, even much later.
      g.w.clock.set(new Date(T0.getTime() + 86_400_000));
      await g.w.app.notifier.tick();
      g.w.clock.set(T0);
      expect(receiver.requests).toHaveLength(1);
      expect(await g.w.app.db.notification.findUnique({ where: { code: r.data.testChannel.notification.uuid } })).toMatchObject({ state: 'failed', attempts: 1, lastError: 'Received status code 500' });
    });

    it('fails an email test at once when EMAIL_HOST is not set', async () => {
      const c = await g.create({ kind: 'EMAIL', value: 'nobody@example.org' });
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.data.testChannel).toMatchObject({ ok: false, state: 'FAILED', notification: { state: 'FAILED', attempts: 1 } });
      expect(r.data.testChannel.error).toContain('EMAIL_HOST');
    });
  });

  describe('notifications of a flip', () => {
    let check: string;
    let channel: { uuid: string };
    let carol: CreatedProject;
    const NOTIFICATION = 'uuid reason status state attempts error eventAt createdAt sentAt nextAttemptAt durationMs channel { uuid } check { uuid }';

    beforeAll(async () => {
      // A project of its own, so "*" assigns just this channel.
      carol = await createProject(g.w.app.db, { name: 'Carol' });
      channel = await g.create({ kind: 'WEBHOOK', value: `${receiver.url}/flip`, name: 'flip hook' }, carol.api_key);
      const created = await g.w.api('POST', '/api/v3/checks/', { key: carol.api_key, body: { name: 'nightly', timeout: 60, grace: 60, channels: '*' } });
      expect(created.status).toBe(201);
      check = created.json.uuid;
    });

    it('lists the sent DOWN alert on the check and on the channel, as the receiver got it', async () => {
      await g.w.ping(`/ping/${check}`);
      await g.w.ping(`/ping/${check}/fail`);
      await g.w.app.notifier.tick();
      const r = await g.q(`query($id: ID) { check(id: $id) { notifications { ${NOTIFICATION} } } project { channels { uuid notifications { uuid } } } }`, { id: check }, carol.api_key);
      expect(r.errors).toBeUndefined();
      const list = r.data.check.notifications;
      expect(list).toEqual([{
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), reason: 'FLIP', status: 'DOWN', state: 'SENT', attempts: 1, error: '',
        eventAt: T0.toISOString(), createdAt: T0.toISOString(), sentAt: T0.toISOString(), nextAttemptAt: null,
        durationMs: expect.any(Number), channel: { uuid: channel.uuid }, check: { uuid: check },
      }]);
      expect(r.data.project.channels).toEqual([{ uuid: channel.uuid, notifications: [{ uuid: list[0].uuid }] }]);
      expect(receiver.requests.map((x) => [x.method, x.path, x.headers['idempotency-key']])).toEqual([['POST', '/flip', list[0].uuid]]);
      expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({ event: 'flip', status: 'down', check: { name: 'nightly' } });
    });

    it('lists newest first, at most `first`', async () => {
      await g.w.ping(`/ping/${check}`);
      await g.w.app.notifier.tick();
      const r = await g.q('query($id: ID) { check(id: $id) { all: notifications { status state } one: notifications(first: 1) { status } } }', { id: check }, carol.api_key);
      expect(r.data.check).toEqual({ all: [{ status: 'UP', state: 'SENT' }, { status: 'DOWN', state: 'SENT' }], one: [{ status: 'UP' }] });
    });

    it('hides them from read-only keys: null with UNAUTHENTICATED, the rest of the check intact', async () => {
      const r = await g.q('query($id: ID) { check(id: $id) { name notifications { uuid } } }', { id: check }, carol.api_key_readonly);
      expect(r.data).toEqual({ check: { name: 'nightly', notifications: null } });
      expect(r.errors).toEqual([expect.objectContaining({ message: 'wrong api key', path: ['check', 'notifications'], extensions: { code: 'UNAUTHENTICATED' } })]);
    });

    it('deletes a channel with its notifications; the check no longer lists it', async () => {
      const before = await g.w.app.db.notification.count({ where: { channel: { code: channel.uuid } } });
      expect(before).toBe(2);
      const r = await g.q(DELETE, { id: channel.uuid }, carol.api_key);
      expect(r).toEqual({ data: { deleteChannel: channel.uuid } });
      expect(await g.row(channel.uuid)).toBeNull();
      expect(await g.w.app.db.notification.count({ where: { check: { code: check } } })).toBe(0);
      const after = await g.q('query($id: ID) { check(id: $id) { channels { uuid } notifications { uuid } } }', { id: check }, carol.api_key);
      expect(after.data.check).toEqual({ channels: [], notifications: [] });
      expect(failure(await g.q(DELETE, { id: channel.uuid }, carol.api_key))).toEqual([`channel not found: ${channel.uuid}`, 'NOT_FOUND']);
    });
  });

  describe('setNagPeriod', () => {
    const nag = async () => (await g.q('{ project { nagPeriod } }')).data.project.nagPeriod;
    const stored = async () => (await g.w.app.db.project.findUnique({ where: { id: g.w.alice.id } }))!.nagPeriod;

    it('sets the repeat-alert period, and null turns it off', async () => {
      expect(await nag()).toBeNull();
      expect(await g.q(SET_NAG, { s: 3600 })).toEqual({ data: { setNagPeriod: true } });
      expect(await nag()).toBe(3600);
      expect(await stored()).toBe(3600);
      expect(await g.q(SET_NAG, { s: null })).toEqual({ data: { setNagPeriod: true } });
      expect(await nag()).toBeNull();
      expect(await stored()).toBeNull();
    });

    it('accepts 60 s to 30 days and refuses anything outside, changing nothing', async () => {
      for (const s of [60, 2_592_000]) expect((await g.q(SET_NAG, { s })).data.setNagPeriod).toBe(true);
      for (const s of [59, 0, -60, 2_592_001]) {
        expect(failure(await g.q(SET_NAG, { s })), String(s)).toEqual(['nag period must be between 60 and 2592000 seconds', 'BAD_USER_INPUT']);
      }
      expect(await stored()).toBe(2_592_000);
    });
  });
});

describe('testChannel with delivery settings', () => {
  it('refuses to send webhooks when WEBHOOKS_ENABLED is False', async () => {
    const g = await graphqlWorld({ WEBHOOKS_ENABLED: 'False' });
    try {
      // Not offered, so not created here: one made before the switch went off (or imported).
      const c = await createChannel(g.w.app.db, g.w.alice.id, { kind: 'webhook', value: `${receiver.url}/off` });
      const r = await g.q(TEST, { id: c.code });
      expect(r.data.testChannel).toMatchObject({ ok: false, state: 'FAILED', error: 'Webhook notifications are not enabled.', notification: { state: 'FAILED', attempts: 1 } });
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await g.w.stop();
    }
  });

  it('delivers an email test over SMTP with the notification id in the Message-ID', async () => {
    const sink: SmtpSink = await startSmtpSink();
    const g = await graphqlWorld({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(sink.port), EMAIL_USE_TLS: 'False', DEFAULT_FROM_EMAIL: 'alerts@gateway.test' });
    try {
      // The operator's channel: an address made over the API waits for its recipient (consent.test.ts).
      const c = { uuid: (await createChannel(g.w.app.db, g.w.alice.id, { kind: 'email', value: 'oncall@example.org' })).code };
      const r = await g.q(TEST, { id: c.uuid });
      expect(r.data.testChannel).toMatchObject({ ok: true, state: 'SENT', error: '', notification: { state: 'SENT', attempts: 1 } });
      expect(sink.messages).toHaveLength(1);
      const [m] = sink.messages;
      expect(m!.to).toEqual(['oncall@example.org']);
      expect(m!.from).toBe('alerts@gateway.test');
      expect(m!.parsed.subject).toBe('DOWN | TEST');
      expect(m!.parsed.messageId).toContain(r.data.testChannel.notification.uuid);
    } finally {
      await g.w.stop();
      await sink.close();
    }
  });
});

describe('notificationOutcomes subscription', () => {
  let w: World;
  let client: Client;
  beforeAll(async () => {
    w = await createWorld();
    client = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': w.alice.api_key }, retryAttempts: 0, lazy: true });
  });
  afterAll(async () => {
    await client.dispose();
    await w.stop();
  });

  it('pushes the SENT outcome of a flip’s notification', async () => {
    const q = inProcess(w.app.services, w.app.log, w.alice.api_key);
    const channel = (await q(CREATE, { kind: 'WEBHOOK', value: `${receiver.url}/sub` })).data.createChannel;
    const check = (await w.api('POST', '/api/v3/checks/', { body: { name: 'watched', timeout: 60, grace: 60, channels: '*' } })).json.uuid as string;
    const idle = w.app.deps.events.listenerCount('notification');
    const events: any[] = [];
    let failed: unknown;
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const stop = client.subscribe(
      { query: 'subscription($id: ID) { notificationOutcomes(checkId: $id) { reason status state attempt error at notification { uuid state attempts channel { uuid } check { uuid } } } }', variables: { id: check } },
      { next: (v) => (events.push(v), arrived()), error: (e) => ((failed = e), arrived()), complete: () => {} },
    );
    for (let i = 0; i < 200 && w.app.deps.events.listenerCount('notification') === idle; i++) await new Promise((r) => setTimeout(r, 10));
    expect(w.app.deps.events.listenerCount('notification')).toBeGreaterThan(idle);

    await w.ping(`/ping/${check}`);
    await w.ping(`/ping/${check}/fail`);
    await w.app.notifier.tick();
    await first;
    stop();
    expect(failed).toBeUndefined();
    const row = await w.app.db.notification.findFirstOrThrow({ where: { check: { code: check } } });
    expect(events).toEqual([{
      data: {
        notificationOutcomes: {
          reason: 'FLIP', status: 'DOWN', state: 'SENT', attempt: 1, error: '', at: T0.toISOString(),
          notification: { uuid: row.code, state: 'SENT', attempts: 1, channel: { uuid: channel.uuid }, check: { uuid: check } },
        },
      },
    }]);
    expect(receiver.requests.map((x) => x.headers['idempotency-key'])).toEqual([row.code]);
  });

  it('refuses read-only keys with "wrong api key"', async () => {
    const ro = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': w.alice.api_key_readonly }, retryAttempts: 0 });
    try {
      const outcome = await new Promise<unknown>((resolve) => {
        ro.subscribe({ query: 'subscription { notificationOutcomes { state } }' }, { next: resolve, error: resolve, complete: () => resolve('completed') });
      });
      expect(JSON.stringify(outcome)).toContain('wrong api key');
      expect(JSON.stringify(outcome)).toContain('UNAUTHENTICATED');
    } finally {
      await ro.dispose();
    }
  });
});
