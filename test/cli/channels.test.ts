// Channel commands of the operator CLI (in process): webhook specs from options, channel tests
// against a real local receiver, the channel list with the last outcome, disabling, and the
// repeat-alert period. One test starts the real bin to show what only a process shows: after
// sending a test over the network it exits, leaving no connection or timer that keeps it alive.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHttpReceiver } from '../helpers/fixtures.ts';
import { gatewayIn } from './in-process.ts';

const exec = promisify(execFile);
let dir: string;
let env: NodeJS.ProcessEnv;
const receiver = useHttpReceiver({ reset: true });
let projectId: string;
/** The webhook the first tests create and the later ones change. */
let hook: { id: string; name: string; kind: string };

const gateway = (...args: string[]) => gatewayIn(env, args);
/** Rows of the CLI's database, read directly. */
function rows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dir, 'cli.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
interface Listed {
  id: string;
  name: string;
  kind: string;
  value: string;
  disabled: boolean;
  last_notification: string;
  last_attempt: string;
  last_error: string;
}
const list = async (): Promise<Listed[]> => {
  const r = await gateway('channel', 'list', '--project', projectId, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const listed = async (id: string) => (await list()).find((c) => c.id === id)!;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-channels-'));
  env = { DATABASE_URL: `file:${dir}/cli.db`, NOTIFY_TIMEOUT_MS: '5000', INTEGRATIONS_ALLOW_PRIVATE_IPS: 'True' };
  const r = await gateway('project', 'create', '--name', 'Ops', '--json');
  expect(r.code, r.stderr).toBe(0);
  projectId = JSON.parse(r.stdout).id;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe('gateway channel (webhook spec)', () => {
  it('creates a webhook from the full spec and lists it as Healthchecks stores it', async () => {
    const r = await gateway(
      'channel', 'create', '--project', projectId, '--kind', 'webhook', '--name', 'ops hook',
      '--url-down', `${receiver.url}/down?check=$NAME`, '--method-down', 'post', '--body-down', '{"status":"$STATUS"}',
      '--header-down', 'X-Token: s3cret', '--header-down', 'Content-Type:application/json',
      '--url-up', `${receiver.url}/up`, '--method-up', 'GET',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    hook = JSON.parse(r.stdout);
    expect(hook).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'ops hook', kind: 'webhook' });
    const entry = await listed(hook.id);
    expect(entry).toMatchObject({ name: 'ops hook', kind: 'webhook', disabled: false, last_notification: 'none', last_attempt: '', last_error: '' });
    expect(JSON.parse(entry.value)).toEqual({
      method_down: 'POST', url_down: `${receiver.url}/down?check=$NAME`, body_down: '{"status":"$STATUS"}',
      headers_down: { 'X-Token': 's3cret', 'Content-Type': 'application/json' },
      method_up: 'GET', url_up: `${receiver.url}/up`, body_up: '', headers_up: {},
    });
    expect(rows('SELECT notifyDown, notifyUp FROM Channel WHERE code = ?', hook.id)).toEqual([{ notifyDown: 1, notifyUp: 1 }]);
  });

  it('tests the channel: one request as the spec says, "sent (N ms)", exit status 0; the list shows it sent', async () => {
    const r = await gateway('channel', 'test', '--id', hook.id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^sent \(\d+ ms\)\n$/);
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/down?check=TEST', body: '{"status":"down"}' });
    expect(req!.headers).toMatchObject({ 'x-token': 's3cret', 'content-type': 'application/json' });
    const [stored] = rows<{ code: string; reason: string; state: string; attempts: number }>('SELECT n.code, n.reason, n.state, n.attempts FROM Notification n JOIN Channel c ON c.id = n.channelId WHERE c.code = ?', hook.id);
    expect(stored).toMatchObject({ reason: 'test', state: 'sent', attempts: 1 });
    expect(req!.headers['idempotency-key']).toBe(stored!.code);
    const entry = await listed(hook.id);
    expect(entry).toMatchObject({ last_notification: 'sent', last_error: '' });
    expect(Date.parse(entry.last_attempt)).not.toBeNaN();
  });

  it('reports a receiver’s 500 as "failed: Received status code 500" with exit status 1; the list shows it failed', async () => {
    receiver.respond(500);
    const [text, json] = await Promise.all([gateway('channel', 'test', '--id', hook.id), gateway('channel', 'test', '--id', hook.id, '--json')]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('failed: Received status code 500\n');
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout);
    expect(out).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ok: false, error: 'Received status code 500', duration_ms: expect.any(Number) });
    // Tests are not retried: one request each.
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests.map((x) => x.headers['idempotency-key'])).toContain(out.id);
    expect(await listed(hook.id)).toMatchObject({ last_notification: 'failed', last_error: 'Received status code 500' });
  });

  it('renames the channel, keeping its spec and flags', async () => {
    const before = (await listed(hook.id)).value;
    const r = await gateway('channel', 'update', '--id', hook.id, '--name', 'renamed hook', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: hook.id, name: 'renamed hook', kind: 'webhook', disabled: false });
    expect(await listed(hook.id)).toMatchObject({ name: 'renamed hook', value: before });
    expect(rows('SELECT notifyDown, notifyUp FROM Channel WHERE code = ?', hook.id)).toEqual([{ notifyDown: 1, notifyUp: 1 }]);
  });

  it('changes one side of the spec, keeping the other side and the fields left out', async () => {
    const r = await gateway('channel', 'update', '--id', hook.id, '--url-up', `${receiver.url}/up2`, '--method-up', 'PUT', '--body-up', 'back', '--no-notify-up');
    expect(r.code, r.stderr).toBe(0);
    const spec = JSON.parse((await listed(hook.id)).value);
    expect(spec).toEqual({
      method_down: 'POST', url_down: `${receiver.url}/down?check=$NAME`, body_down: '{"status":"$STATUS"}',
      headers_down: { 'X-Token': 's3cret', 'Content-Type': 'application/json' },
      method_up: 'PUT', url_up: `${receiver.url}/up2`, body_up: 'back', headers_up: {},
    });
    expect(rows('SELECT notifyDown, notifyUp FROM Channel WHERE code = ?', hook.id)).toEqual([{ notifyDown: 1, notifyUp: 0 }]);
    const again = await gateway('channel', 'update', '--id', hook.id, '--notify-up');
    expect(again.code, again.stderr).toBe(0);
    expect(rows('SELECT notifyDown, notifyUp FROM Channel WHERE code = ?', hook.id)).toEqual([{ notifyDown: 1, notifyUp: 1 }]);
    expect(JSON.parse((await listed(hook.id)).value)).toEqual(spec);
  });

  it('disables and enables the channel', async () => {
    const off = await gateway('channel', 'update', '--id', hook.id, '--disable', '--json');
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ id: hook.id, disabled: true });
    expect(await listed(hook.id)).toMatchObject({ disabled: true });
    const [on, both] = await Promise.all([
      gateway('channel', 'update', '--id', hook.id, '--enable'),
      gateway('channel', 'update', '--id', hook.id, '--disable', '--enable'),
    ]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/^disabled\s+false$/m);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('error: choose one of --disable, --enable');
    expect(rows('SELECT disabled FROM Channel WHERE code = ?', hook.id)).toEqual([{ disabled: 0 }]);
  });
});

describe('gateway channel (other input)', () => {
  it('creates a down-only email channel with --no-notify-up', async () => {
    const r = await gateway('channel', 'create', '--project', projectId, '--kind', 'email', '--value', 'ops@example.org', '--no-notify-up', '--json');
    expect(r.code, r.stderr).toBe(0);
    const { id } = JSON.parse(r.stdout);
    expect(rows('SELECT kind, value, notifyDown, notifyUp FROM Channel WHERE code = ?', id)).toEqual([{ kind: 'email', value: 'ops@example.org', notifyDown: 1, notifyUp: 0 }]);
  });

  it("takes Healthchecks' kind codes and its stored values: --kind pd, ntfy's JSON (a priority of 0 turns that status off)", async () => {
    const pd = await gateway('channel', 'create', '--project', projectId, '--kind', 'pd', '--value', 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4', '--json');
    expect(pd.code, pd.stderr).toBe(0);
    expect(JSON.parse(pd.stdout)).toMatchObject({ kind: 'pagerduty' });
    const value = '{"priority": 5, "priority_up": 0, "token": "", "topic": "alerts", "url": "https://ntfy.sh"}';
    const ntfy = await gateway('channel', 'create', '--project', projectId, '--kind', 'ntfy', '--value', value, '--json');
    expect(ntfy.code, ntfy.stderr).toBe(0);
    expect(rows('SELECT kind, value, notifyDown, notifyUp FROM Channel WHERE code = ?', JSON.parse(ntfy.stdout).id)).toEqual([{ kind: 'ntfy', value, notifyDown: 1, notifyUp: 0 }]);
  });

  // The messages of every rule are the domain's (test/monitoring/integrations/kinds/webhook/spec.test.ts);
  // these show that each kind of failure reaches the operator.
  it('refuses invalid input with a clear message and exit status 1, storing nothing', async () => {
    const before = rows<{ n: number }>('SELECT COUNT(*) AS n FROM Channel')[0]!.n;
    const create = (...args: string[]) => gateway('channel', 'create', '--project', projectId, ...args);
    const cases: Array<[Promise<{ code: number; stderr: string }>, string]> = [
      [create('--kind', 'pager', '--value', 'x'), 'gateway: kind must be one of email, webhook, sms, slack, mattermost, rocketchat, discord, pagerduty, opsgenie, victorops, pagertree, spike, ntfy, pushover, pushbullet, gotify, msteams, googlechat, zulip, telegram, whatsapp, call, matrix, signal, apprise, shell, group, github, trello'],
      [create('--kind', 'webhook', '--url-down', 'https://x.example.org', '--header-down', 'nocolon'), 'gateway: header must be "Name: value": nocolon'],
      [create('--kind', 'webhook', '--url-down', 'https://x.example.org', '--header-down', 'X Bad: 1'), 'gateway: down: invalid header name: X Bad'],
      [create('--kind', 'webhook', '--method-down', 'POST'), 'gateway: a webhook needs a url for down, for up, or both'],
      [create('--kind', 'webhook', '--value', 'https://x.example.org', '--url-down', 'https://y.example.org'), 'gateway: give either a value (URL) or a webhook spec, not both'],
      [gateway('channel', 'test', '--id', '00000000-0000-4000-8000-000000000000'), 'gateway: channel not found: 00000000-0000-4000-8000-000000000000'],
    ];
    const results = await Promise.all(cases.map(([run]) => run));
    results.forEach((r, i) => {
      expect(r.code, cases[i]![1]).toBe(1);
      expect(r.stderr, cases[i]![1]).toBe(`${cases[i]![1]}\n`);
    });
    expect(rows<{ n: number }>('SELECT COUNT(*) AS n FROM Channel')[0]!.n).toBe(before);
  });
});

describe('gateway project set-nag', () => {
  const nag = () => rows<{ nagPeriod: number | null }>('SELECT nagPeriod FROM Project WHERE id = ?', projectId)[0]!.nagPeriod;

  it('sets the repeat-alert period and turns it off', async () => {
    const on = await gateway('project', 'set-nag', '--project', projectId, '--period', '3600');
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toBe('repeat alerts every 3600 s\n');
    expect(nag()).toBe(3600);
    const off = await gateway('project', 'set-nag', '--project', projectId, '--period', 'off');
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toBe('repeat alerts off\n');
    expect(nag()).toBeNull();
  });

  it('refuses a period out of range, a non-number and an unknown project', async () => {
    const [short, word, missing] = await Promise.all([
      gateway('project', 'set-nag', '--project', projectId, '--period', '30'),
      gateway('project', 'set-nag', '--project', projectId, '--period', 'hourly'),
      gateway('project', 'set-nag', '--project', 'nope', '--period', '3600'),
    ]);
    expect([short.code, short.stderr]).toEqual([1, 'gateway: nag period must be between 60 and 2592000 seconds\n']);
    expect(word.code).toBe(2);
    expect(word.stderr).toContain(`option '--period <seconds>' argument 'hourly' is invalid. expected a whole number of seconds, or "off"`);
    expect([missing.code, missing.stderr]).toEqual([1, 'gateway: project not found: nope\n']);
    expect(nag()).toBeNull();
  });
});

describe('the process', () => {
  it('sends a channel test over the network and exits with status 0', async () => {
    // Killed after 15 s, so that a process kept alive by what it sent fails the test rather than hangs it.
    const { stdout, stderr } = await exec(process.execPath, ['bin/gateway.mjs', 'channel', 'test', '--id', hook.id], { env: { PATH: process.env.PATH, ...env }, timeout: 15_000 });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^sent \(\d+ ms\)\n$/);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]).toMatchObject({ method: 'POST', path: '/down?check=TEST' });
  });
});
