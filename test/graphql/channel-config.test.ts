// Channel.config and the `config` argument of createChannel/updateChannel (issue #27): for each
// kind whose value packs several fields, a channel created through `config` reads back typed, and
// its stored value is the one Healthchecks' form writes, byte for byte (Python's json.dumps, the
// form's key order). Bad settings are refused with the kind's own message and store nothing.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { inProcess, type Query } from './in-process.ts';
import type { GqlResult } from '../helpers/gql.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } });

// Gotify's priorities are nullable (a value stored before them), ntfy's and Pushover's are not:
// one selection holding both must alias them (GraphQL's same-response-shape rule).
const CONFIG = `config { __typename
  ... on PagerDutyConfig { serviceKey account }
  ... on OpsgenieConfig { key region }
  ... on NtfyConfig { url topic priority priorityUp token }
  ... on PushoverConfig { userKey priority priorityUp }
  ... on GotifyConfig { url token gotifyPriority: priority gotifyPriorityUp: priorityUp }
  ... on ZulipConfig { botEmail apiKey site mtype to topic }
  ... on TelegramConfig { chatId type name threadId }
  ... on SignalConfig { recipient down up }
  ... on ShellConfig { cmdDown cmdUp }
  ... on GitHubConfig { installationId repo labels }
  ... on TrelloConfig { token boardName listName listId }
  ... on GroupConfig { members } }`;
const FIELDS = `uuid kind target notifyDown notifyUp ${CONFIG}`;
const CREATE = `mutation($kind: ChannelKind!, $value: String, $config: ChannelConfigInput, $webhook: WebhookSpecInput) {
  createChannel(kind: $kind, value: $value, config: $config, webhook: $webhook) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $value: String, $config: ChannelConfigInput, $name: String) {
  updateChannel(id: $id, value: $value, config: $config, name: $name) { ${FIELDS} } }`;

const LIST = '0123456789abcdef0123456789abcdef';
const PD_KEY = 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4';
const PO_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

interface Case {
  kind: string;
  config: Record<string, unknown>;
  /** What Healthchecks' form stores for these settings, byte for byte. */
  stored: string;
  /** The value the kind's own tests use (JSON.parse of `stored` holds the same), where it is JSON. */
  asInKindTest?: unknown;
  /** Channel.config as read back. */
  read: Record<string, unknown>;
  notifies?: { notifyDown: boolean; notifyUp: boolean };
}

const CASES: Case[] = [
  {
    kind: 'PAGERDUTY',
    config: { pagerduty: { serviceKey: PD_KEY, account: 'Acme' } },
    stored: `{"service_key": "${PD_KEY}", "account": "Acme"}`,
    asInKindTest: { service_key: PD_KEY, account: 'Acme' },
    read: { __typename: 'PagerDutyConfig', serviceKey: PD_KEY, account: 'Acme' },
  },
  {
    kind: 'OPSGENIE',
    config: { opsgenie: { key: 'og-key-123', region: 'US' } },
    stored: '{"region": "us", "key": "og-key-123"}',
    asInKindTest: { region: 'us', key: 'og-key-123' },
    read: { __typename: 'OpsgenieConfig', key: 'og-key-123', region: 'US' },
  },
  {
    kind: 'NTFY',
    config: { ntfy: { url: 'https://ntfy.example.org', topic: 't', priority: 3, priorityUp: 0 } },
    stored: '{"priority": 3, "priority_up": 0, "token": "", "topic": "t", "url": "https://ntfy.example.org"}',
    asInKindTest: { topic: 't', url: 'https://ntfy.example.org', priority: 3, priority_up: 0, token: '' },
    read: { __typename: 'NtfyConfig', url: 'https://ntfy.example.org', topic: 't', priority: 3, priorityUp: 0, token: '' },
    // Priority 0 for up: Healthchecks' is_noop, so the channel is not notified of up.
    notifies: { notifyDown: true, notifyUp: false },
  },
  {
    kind: 'PUSHOVER',
    config: { pushover: { userKey: PO_USER, priority: 0, priorityUp: -1 } },
    stored: `${PO_USER}|0|-1`,
    read: { __typename: 'PushoverConfig', userKey: PO_USER, priority: 0, priorityUp: -1 },
  },
  {
    kind: 'GOTIFY',
    config: { gotify: { url: 'https://gotify.example.org', token: 't', priority: 5, priorityUp: 0 } },
    stored: '{"priority": 5, "priority_up": 0, "token": "t", "url": "https://gotify.example.org"}',
    asInKindTest: { priority: 5, priority_up: 0, token: 't', url: 'https://gotify.example.org' },
    read: { __typename: 'GotifyConfig', url: 'https://gotify.example.org', token: 't', gotifyPriority: 5, gotifyPriorityUp: 0 },
    notifies: { notifyDown: true, notifyUp: false },
  },
  {
    kind: 'ZULIP',
    config: { zulip: { botEmail: 'bot@example.org', apiKey: 'k', site: 'https://example.zulipchat.com', mtype: 'PRIVATE', to: '12' } },
    stored: '{"api_key": "k", "bot_email": "bot@example.org", "mtype": "private", "site": "https://example.zulipchat.com", "to": "12", "topic": ""}',
    asInKindTest: { bot_email: 'bot@example.org', api_key: 'k', mtype: 'private', to: '12', site: 'https://example.zulipchat.com', topic: '' },
    read: { __typename: 'ZulipConfig', botEmail: 'bot@example.org', apiKey: 'k', site: 'https://example.zulipchat.com', mtype: 'PRIVATE', to: '12', topic: '' },
  },
  {
    kind: 'TELEGRAM',
    // A supergroup's id is past GraphQL's Int: chatId is a Float.
    config: { telegram: { chatId: -1001234567890, threadId: 7, type: 'supergroup', name: 'Ops' } },
    stored: '{"id": -1001234567890, "type": "supergroup", "name": "Ops", "thread_id": 7}',
    asInKindTest: { id: -1001234567890, thread_id: 7, type: 'supergroup', name: 'Ops' },
    read: { __typename: 'TelegramConfig', chatId: -1001234567890, type: 'supergroup', name: 'Ops', threadId: 7 },
  },
  {
    kind: 'SIGNAL',
    config: { signal: { recipient: '+15551234567', up: false } },
    stored: '{"value": "+15551234567", "up": false, "down": true}',
    asInKindTest: { value: '+15551234567', up: false, down: true },
    read: { __typename: 'SignalConfig', recipient: '+15551234567', down: true, up: false },
    notifies: { notifyDown: true, notifyUp: false },
  },
  {
    kind: 'SHELL',
    config: { shell: { cmdDown: 'logger "ünïcode down"' } },
    // ensure_ascii: Healthchecks stores non-ASCII as \u escapes.
    stored: '{"cmd_down": "logger \\"\\u00fcn\\u00efcode down\\"", "cmd_up": ""}',
    asInKindTest: { cmd_down: 'logger "ünïcode down"', cmd_up: '' },
    read: { __typename: 'ShellConfig', cmdDown: 'logger "ünïcode down"', cmdUp: '' },
    notifies: { notifyDown: true, notifyUp: false },
  },
  {
    kind: 'GITHUB',
    config: { github: { installationId: 123, repo: 'alice/foo', labels: [' foo', 'bar ', ''] } },
    stored: '{"installation_id": 123, "repo": "alice/foo", "labels": ["foo", "bar"]}',
    asInKindTest: { installation_id: 123, repo: 'alice/foo', labels: ['foo', 'bar'] },
    read: { __typename: 'GitHubConfig', installationId: 123, repo: 'alice/foo', labels: ['foo', 'bar'] },
    notifies: { notifyDown: true, notifyUp: false },
  },
  {
    kind: 'TRELLO',
    config: { trello: { token: 'member-token', boardName: 'Ops', listName: 'Incidents', listId: LIST } },
    stored: `{"board_name": "Ops", "list_id": "${LIST}", "list_name": "Incidents", "token": "member-token"}`,
    asInKindTest: { board_name: 'Ops', list_id: LIST, list_name: 'Incidents', token: 'member-token' },
    read: { __typename: 'TrelloConfig', token: 'member-token', boardName: 'Ops', listName: 'Incidents', listId: LIST },
    notifies: { notifyDown: true, notifyUp: false },
  },
];

/** The one error of a response, as `[message, code]`. */
const failure = (r: GqlResult) => {
  expect(r.errors, JSON.stringify(r)).toHaveLength(1);
  return [r.errors![0]!.message, r.errors![0]!.extensions?.code];
};

describe('typed channel configuration over GraphQL', () => {
  let w: World;
  let q: Query;
  const stored = (code: string) => w.app.db.channel.findUnique({ where: { code } });
  const count = () => w.app.db.channel.count({ where: { projectId: w.alice.id } });

  beforeAll(async () => {
    w = await createWorld({
      TELEGRAM_TOKEN: '123:abc',
      PUSHOVER_API_TOKEN: 'po-app-token',
      SIGNAL_CLI_SOCKET: '/tmp/signal-cli.sock',
      SHELL_ENABLED: 'True',
      GITHUB_CLIENT_ID: 'Iv1.0123456789abcdef',
      GITHUB_PRIVATE_KEY: privateKey,
      TRELLO_APP_KEY: 'app-key-1',
    });
    q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  });
  afterAll(() => w?.stop());

  it.each(CASES.map((c) => [c.kind, c] as const))('%s: created through config, stored as Healthchecks stores it, read back typed', async (kind, c) => {
    const r = await q(CREATE, { kind, config: c.config });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const channel = r.data.createChannel;
    expect(channel.config).toEqual(c.read);
    expect(channel).toMatchObject({ kind, target: c.stored, ...(c.notifies ?? { notifyDown: true, notifyUp: true }) });
    const row = await stored(channel.uuid);
    expect(row?.value).toBe(c.stored);
    if (c.asInKindTest !== undefined) expect(JSON.parse(row!.value)).toEqual(c.asInKindTest);
    // The same value given as `value` reads back as the same config (a channel made in the app).
    const viaValue = await q(CREATE, { kind, value: c.stored });
    expect(viaValue.data?.createChannel.config).toEqual(c.read);
  });

  it('GROUP: the members’ UUIDs joined with ",", read back as a list', async () => {
    const [a, b] = await Promise.all(['a', 'b'].map((n) => createChannel(w.app.db, w.alice.id, { kind: 'email', value: `${n}@example.org` })));
    const r = await q(CREATE, { kind: 'GROUP', config: { group: { members: [a!.code, b!.code] } } });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(r.data.createChannel.config).toEqual({ __typename: 'GroupConfig', members: [a!.code, b!.code] });
    expect((await stored(r.data.createChannel.uuid))?.value).toBe(`${a!.code},${b!.code}`);
    // The kind's rule among the project's channels still applies: an unknown member is refused.
    const other = '00000000-0000-4000-8000-000000000000';
    const bad = await q(CREATE, { kind: 'GROUP', config: { group: { members: [other] } } });
    expect(failure(bad)).toEqual([`Select a valid choice. ${other} is not one of the available choices (no channel of this project has that id).`, 'BAD_USER_INPUT']);
  });

  it('is null for kinds whose value is one field, and for a webhook spec', async () => {
    const email = await q(CREATE, { kind: 'EMAIL', value: 'ops@example.org' });
    expect(email.data.createChannel).toMatchObject({ target: 'ops@example.org', config: null });
    const hook = await q(CREATE, { kind: 'WEBHOOK', webhook: { down: { url: 'https://hooks.example.org/d' } } });
    expect(hook.data.createChannel.config).toBeNull();
  });

  it.each([
    ['NTFY', { ntfy: { url: 'https://ntfy.example.org', topic: 't', priority: 7, priorityUp: 3 } }, 'priority must be a whole number from 0 (no notification) to 5 (max)'],
    ['NTFY', { ntfy: { url: 'ftp://ntfy.example.org', topic: 't', priority: 3, priorityUp: 3 } }, 'url is not a valid http(s) URL'],
    ['OPSGENIE', { opsgenie: { key: 'k'.repeat(41), region: 'EU' } }, 'key must be an Opsgenie API key (up to 40 characters)'],
    ['PUSHOVER', { pushover: { userKey: 'not a key', priority: 0, priorityUp: 0 } }, 'user key must be letters and digits (up to 50)'],
    ['PUSHOVER', { pushover: { userKey: PO_USER, priority: -3, priorityUp: -3 } }, 'a channel must notify of down, up or both'],
    ['GOTIFY', { gotify: { url: 'https://gotify.example.org', token: 't', priority: 10, priorityUp: 5 } }, 'priority must be a whole number from 0 (no notification) to 9'],
    ['ZULIP', { zulip: { botEmail: 'not-an-email', apiKey: 'k', site: 'https://z.example.org', mtype: 'STREAM', to: 'ops' } }, 'bot_email must be an email address of up to 100 characters'],
    ['TELEGRAM', { telegram: { chatId: 1.5 } }, 'id must be a whole number (the chat id)'],
    ['SIGNAL', { signal: { recipient: 'alice' } }, 'Invalid phone number format.'],
    ['SHELL', { shell: { cmdDown: 'x'.repeat(1001) } }, 'cmd_down: Ensure this value has at most 1000 characters (it has 1001).'],
    ['GITHUB', { github: { installationId: 1, repo: 'alice' } }, 'repo must be "owner/name"'],
    ['TRELLO', { trello: { token: 't', boardName: 'Ops', listName: 'L', listId: 'xyz' } }, 'list_id: Enter a valid value.'],
    ['PAGERDUTY', { pagerduty: { serviceKey: 'has space' } }, 'value must be a PagerDuty integration key (up to 32 characters), or {"service_key": "…", "account": "…"}'],
  ])('%s: bad settings are refused with the kind’s own message, nothing stored', async (kind, config, message) => {
    const before = await count();
    expect(failure(await q(CREATE, { kind, config }))).toEqual([message, 'BAD_USER_INPUT']);
    expect(await count()).toBe(before);
  });

  it('refuses a config with a value or a webhook spec, a config of another kind, and a config for a kind without one', async () => {
    const before = await count();
    const ntfy = CASES.find((c) => c.kind === 'NTFY')!;
    expect(failure(await q(CREATE, { kind: 'NTFY', value: ntfy.stored, config: ntfy.config }))).toEqual(['give either a value or a config, not both', 'BAD_USER_INPUT']);
    expect(failure(await q(CREATE, { kind: 'NTFY', webhook: { down: { url: 'https://h.example.org' } }, config: ntfy.config }))).toEqual([
      'give either a webhook spec or a config, not both',
      'BAD_USER_INPUT',
    ]);
    expect(failure(await q(CREATE, { kind: 'OPSGENIE', config: ntfy.config }))).toEqual(['config.ntfy is the configuration of ntfy channels, not of Opsgenie ones', 'BAD_USER_INPUT']);
    expect(failure(await q(CREATE, { kind: 'EMAIL', config: ntfy.config }))).toEqual(['config.ntfy is the configuration of ntfy channels, not of Email ones', 'BAD_USER_INPUT']);
    expect(await count()).toBe(before);
  });

  it('takes exactly one field in config (@oneOf)', async () => {
    const two = await q(CREATE, { kind: 'NTFY', config: { ...CASES[2]!.config, ...CASES[1]!.config } });
    expect(two.errors?.[0]?.message).toMatch(/Exactly one key must be specified for OneOf type "ChannelConfigInput"/);
    const none = await q(CREATE, { kind: 'NTFY', config: {} });
    expect(none.errors?.[0]?.message).toMatch(/Exactly one key must be specified for OneOf type "ChannelConfigInput"/);
  });

  it('updateChannel with config replaces the settings whole; a rename keeps them', async () => {
    const ntfy = CASES.find((c) => c.kind === 'NTFY')!;
    const created = (await q(CREATE, { kind: 'NTFY', config: { ntfy: { url: 'https://ntfy.example.org', topic: 'old', priority: 3, priorityUp: 3, token: 'tk_old' } } })).data.createChannel;
    const r = await q(UPDATE, { id: created.uuid, config: ntfy.config });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    // The token is gone (replaced whole, not merged), and up alerts stop with priority_up 0.
    expect(r.data.updateChannel).toMatchObject({ config: ntfy.read, notifyDown: true, notifyUp: false });
    expect((await stored(created.uuid))?.value).toBe(ntfy.stored);

    const renamed = await q(UPDATE, { id: created.uuid, name: 'Phones' });
    expect(renamed.data.updateChannel.config).toEqual(ntfy.read);
    expect((await stored(created.uuid))?.value).toBe(ntfy.stored);
  });

  it('updateChannel refuses a bad config, value with config, and another kind’s config, leaving the row as it was', async () => {
    const ntfy = CASES.find((c) => c.kind === 'NTFY')!;
    const opsgenie = CASES.find((c) => c.kind === 'OPSGENIE')!;
    const created = (await q(CREATE, { kind: 'NTFY', config: ntfy.config })).data.createChannel;
    const bad = { ntfy: { url: 'https://ntfy.example.org', topic: '', priority: 3, priorityUp: 3 } };
    expect(failure(await q(UPDATE, { id: created.uuid, config: bad }))).toEqual(['topic must be 1 to 64 characters', 'BAD_USER_INPUT']);
    expect(failure(await q(UPDATE, { id: created.uuid, value: ntfy.stored, config: ntfy.config }))).toEqual(['give either a value or a config, not both', 'BAD_USER_INPUT']);
    expect(failure(await q(UPDATE, { id: created.uuid, config: opsgenie.config }))).toEqual([
      'config.opsgenie is the configuration of Opsgenie channels, not of ntfy ones',
      'BAD_USER_INPUT',
    ]);
    expect((await stored(created.uuid))?.value).toBe(ntfy.stored);
  });

  it('shows null for a stored value its kind cannot read, keeping target', async () => {
    // A row of a form this server refuses (an old import): the raw value stays visible as target.
    const row = await createChannel(w.app.db, w.alice.id, { kind: 'ntfy', value: CASES[2]!.stored });
    await w.app.db.channel.update({ where: { id: row.id }, data: { value: '{"topic": "t"}' } });
    const listed = await q(`{ project { channels { uuid target ${CONFIG} } } }`);
    expect(listed.errors, JSON.stringify(listed.errors)).toBeUndefined();
    expect(listed.data.project.channels.find((c: { uuid: string }) => c.uuid === row.code)).toEqual({ uuid: row.code, target: '{"topic": "t"}', config: null });
  });

  it('reads the config with the same read-write rule as target: a read-only key sees no channels', async () => {
    const r = await q(`{ project { channels { uuid ${CONFIG} } } }`, {}, w.alice.api_key_readonly);
    expect(r.data?.project?.channels ?? null).toBeNull();
  });
});
