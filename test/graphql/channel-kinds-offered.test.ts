// A kind whose operator setting is missing or switched off is offered nowhere: the
// `channelKinds` query leaves it out, createChannel and `gateway channel create` refuse it with
// Healthchecks' sentence and the setting that turns it on, and nothing is stored. A channel of
// such a kind that already exists (an import) stays editable.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { inProcess, type Query } from './in-process.ts';
import { gatewayIn } from '../cli/in-process.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';

const KINDS = '{ channelKinds }';
const CREATE = 'mutation($kind: ChannelKind!, $value: String) { createChannel(kind: $kind, value: $value) { uuid kind } }';
const RENAME = 'mutation($id: ID!, $name: String) { updateChannel(id: $id, name: $name) { name } }';
const TELEGRAM = JSON.stringify({ id: -100123, type: 'group', name: 'Ops' });

describe('kinds offered by the server’s settings', () => {
  let bare: World;
  let configured: World;
  let q: Query;
  beforeAll(async () => {
    [bare, configured] = await Promise.all([
      createWorld({ SLACK_ENABLED: 'False' }),
      createWorld({ TELEGRAM_TOKEN: '123:abc', PUSHOVER_API_TOKEN: 'po-app-token' }),
    ]);
    q = inProcess(bare.app.services, bare.app.log, bare.alice.api_key);
  });
  afterAll(() => Promise.all([bare?.stop(), configured?.stop()]));

  it('lists only the kinds this server can send, in the API’s order', async () => {
    const kinds = (await q(KINDS)).data.channelKinds as string[];
    expect(kinds).toContain('EMAIL');
    expect(kinds).toContain('WEBHOOK');
    expect(kinds).not.toContain('TELEGRAM');
    expect(kinds).not.toContain('PUSHOVER');
    expect(kinds).not.toContain('SLACK');
    expect(kinds.indexOf('EMAIL')).toBeLessThan(kinds.indexOf('WEBHOOK'));

    const other = inProcess(configured.app.services, configured.app.log, configured.alice.api_key);
    const theirs = (await other(KINDS)).data.channelKinds as string[];
    expect(theirs).toEqual(expect.arrayContaining(['TELEGRAM', 'PUSHOVER', 'SLACK']));
  });

  it('refuses to create one, naming the setting, and stores nothing', async () => {
    const before = await bare.app.db.channel.count();
    const telegram = await q(CREATE, { kind: 'TELEGRAM', value: TELEGRAM });
    expect(telegram.errors?.[0]).toMatchObject({
      message: "Telegram notifications are not enabled. The server's operator turns them on with TELEGRAM_TOKEN.",
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const slack = await q(CREATE, { kind: 'SLACK', value: 'https://hooks.slack.com/services/T/B/x' });
    expect(slack.errors?.[0]?.message).toBe("Slack notifications are not enabled. The server's operator turns them on with SLACK_ENABLED.");
    expect(await bare.app.db.channel.count()).toBe(before);

    // Where the setting is there, the same request creates it.
    const other = inProcess(configured.app.services, configured.app.log, configured.alice.api_key);
    expect((await other(CREATE, { kind: 'TELEGRAM', value: TELEGRAM })).data.createChannel).toMatchObject({ kind: 'TELEGRAM' });
  });

  it('keeps an existing channel of such a kind editable', async () => {
    // As the importer stores one: the operator's createChannel, below the offer.
    const channel = await createChannel(bare.app.db, bare.alice.id, { kind: 'telegram', value: TELEGRAM });
    const renamed = await q(RENAME, { id: channel.code, name: 'Ops chat' });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data.updateChannel).toEqual({ name: 'Ops chat' });
  });
});

describe('gateway channel create', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinds-offered-'));
    env = { DATABASE_URL: `file:${path.join(dir, 'cli.db')}` };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a kind whose setting is missing, and lists every kind in its help', async () => {
    expect((await gatewayIn(env, ['migrate'])).code).toBe(0);
    const project = JSON.parse((await gatewayIn(env, ['project', 'create', '--name', 'Ops', '--json'])).stdout) as { id: string };
    const refused = await gatewayIn(env, ['channel', 'create', '--project', project.id, '--kind', 'po', '--value', 'u123456789012345678901234567890|0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Pushover notifications are not enabled. The server's operator turns them on with PUSHOVER_API_TOKEN.");
    expect(JSON.parse((await gatewayIn(env, ['channel', 'list', '--project', project.id, '--json'])).stdout)).toEqual([]);

    const withToken = await gatewayIn({ ...env, PUSHOVER_API_TOKEN: 'po-app-token' }, ['channel', 'create', '--project', project.id, '--kind', 'po', '--value', 'u123456789012345678901234567890|0', '--json']);
    expect(withToken.code, withToken.stderr).toBe(0);
    expect(JSON.parse(withToken.stdout)).toMatchObject({ kind: 'pushover' });

    const help = await gatewayIn(env, ['channel', 'create', '--help']);
    expect(help.stdout).toMatch(/telegram/);
    expect(help.stdout).toMatch(/pushover/);
  });
});
