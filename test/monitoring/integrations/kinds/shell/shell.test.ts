// Shell: Healthchecks' JSON value (a command per status, empty: nothing for it), SHELL_ENABLED,
// and real commands run by /bin/sh that write what they got to a temporary file: the
// placeholders replaced and shell-quoted as Healthchecks' Shell.prepare does, the same values in
// the environment, a non-zero exit as "Command returned exit code N", the timeout killing the
// command's whole process group.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { replacePlaceholders, shellQuote } from '../../../../../src/monitoring/integrations/kinds/shell/command.ts';
import { flipDown, incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'shell-kind-'));
const conf = (cmd_down: string, cmd_up = '') => JSON.stringify({ cmd_down, cmd_up });
let w: World;

beforeAll(async () => {
  w = await createWorld({ SHELL_ENABLED: 'True' });
});
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('shell: the value', () => {
  it('takes Healthchecks’ JSON; an empty command turns its status off', () => {
    expect(validateChannelInput({ kind: 'shell', value: conf('logger down', 'logger up') })).toMatchObject({ kind: 'shell', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'shell', value: conf('logger down') })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(validateChannelInput({ kind: 'shell', value: conf('', 'logger up') })).toMatchObject({ notifyDown: false, notifyUp: true });
    expect(refusal(() => validateChannelInput({ kind: 'shell', value: conf('', '') }))).toBe('a channel must notify of down, up or both');
  });

  it('refuses what is not Healthchecks’ ShellConf', () => {
    const cases: Array<[string, string]> = [
      ['logger hello', 'value must be {"cmd_down": "…", "cmd_up": "…"}'],
      ['{"cmd_down": "x"}', 'cmd_up must be text (empty: nothing runs for that status)'],
      ['{"cmd_down": 5, "cmd_up": ""}', 'cmd_down must be text (empty: nothing runs for that status)'],
    ];
    for (const [value, message] of cases) expect(refusal(() => validateChannelInput({ kind: 'shell', value })), value).toBe(message);
  });
});

describe('shell: the placeholders, as Healthchecks replaces them', () => {
  it('quotes as shlex.quote does', () => {
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('backup-db_1.sh')).toBe('backup-db_1.sh');
    expect(shellQuote('a&b')).toBe("'a&b'");
    expect(shellQuote("a'b")).toBe(`'a'"'"'b'`);
  });

  it('replaces only placeholders of the template, the first match of each "$" part once', () => {
    const ctx: Array<[string, string]> = [
      ['$FOO', '$BAR'],
      ['$BAR', 'World'],
    ];
    expect(replacePlaceholders('Hello $FOO', ctx)).toBe('Hello $BAR');
    expect(replacePlaceholders('Hello $$FOO', ctx)).toBe('Hello $$BAR');
    expect(replacePlaceholders('$FOOD costs $5', ctx)).toBe('$BARD costs $5');
  });
});

describe('shell: the commands', () => {
  it('runs the down command with the values substituted (name and tags quoted) and in its environment', async () => {
    const out = join(dir, 'down.txt');
    const cmd = `printf '%s\\n' $NAME $TAG1 $TAG2 $TAGS $STATUS $CODE $NOW "$NAME|$TAGS" "\${NAME}|\${TAG2}|\${STATUS}|\${CODE}" > ${out}`;
    const uuid = await flipDown(w, 'shell', conf(cmd), 'Grades & $CODE', { tags: 'prod db' });
    const flip = await w.app.db.flip.findFirstOrThrow({ where: { check: { code: uuid }, newStatus: 'down' } });
    const now = `${flip.createdAt.toISOString().slice(0, 19)}+00:00`;
    expect(readFileSync(out, 'utf8').split('\n')).toEqual([
      // The name's "$CODE" is not replaced again: the quoted name reaches printf as it is.
      'Grades & $CODE',
      'prod',
      'db',
      'prod db',
      'down',
      uuid,
      now,
      // Inside double quotes shlex.quote's quotes stay, and the shell expands what they hold
      // (here $CODE, from the environment): quote placeholders only where Healthchecks does.
      `'Grades & ${uuid}'|'prod db'`,
      // ${…} is no placeholder: the shell reads the environment's raw values.
      `Grades & $CODE|db|down|${uuid}`,
      '',
    ]);
    const [n] = await w.app.db.notification.findMany({ where: { check: { code: uuid } } });
    expect(n).toMatchObject({ state: 'sent', attempts: 1, lastError: '' });
  });

  it('runs the up command on the way back up, and nothing for a status without a command', async () => {
    const out = join(dir, 'updown.txt');
    const c = await incidentCheck(w, 'shell', conf('', `echo "$STATUS $NAME" >> ${out}`), { name: 'nightly' });
    await c.down();
    expect(await notificationsOf(w, c.channel.id)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    await c.up();
    expect(readFileSync(out, 'utf8')).toBe('up nightly\n');
    expect(await notificationsOf(w, c.channel.id)).toMatchObject([{ status: 'up', state: 'sent' }]);
  });

  it('fails with "Command returned exit code N" on a non-zero exit, and tries again later', async () => {
    const uuid = await flipDown(w, 'shell', conf('exit 3'));
    const [n] = await w.app.db.notification.findMany({ where: { check: { code: uuid } } });
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Command returned exit code 3' });
  });
});

describe('shell: the timeout', () => {
  it('kills a command still running after NOTIFY_TIMEOUT_MS, with what it started', async () => {
    const t = await createWorld({ SHELL_ENABLED: 'True', NOTIFY_TIMEOUT_MS: '300' });
    try {
      const pidFile = join(dir, 'pgid.txt');
      const late = join(dir, 'late.txt');
      const started = Date.now();
      const uuid = await flipDown(t, 'shell', conf(`echo $$ > ${pidFile}; sleep 30; touch ${late}`));
      expect(Date.now() - started).toBeLessThan(10_000);
      const [n] = await t.app.db.notification.findMany({ where: { check: { code: uuid } } });
      expect(n).toMatchObject({ state: 'pending', lastError: 'Command timed out after 0.3 s' });
      // The shell led its own process group: nothing of it (the sleep included) is left.
      const pgid = Number(readFileSync(pidFile, 'utf8'));
      expect(await groupGone(pgid)).toBe(true);
      expect(existsSync(late)).toBe(false);
    } finally {
      await t.stop();
    }
  });
});

describe('shell: without SHELL_ENABLED', () => {
  it('is refused for good, and nothing runs', async () => {
    const off = await createWorld();
    try {
      const out = join(dir, 'off.txt');
      const uuid = await flipDown(off, 'shell', conf(`touch ${out}`));
      expect(await off.app.db.notification.findMany({ where: { check: { code: uuid } } })).toMatchObject([
        { state: 'failed', attempts: 1, lastError: 'Shell notifications are not enabled.' },
      ]);
      expect(existsSync(out)).toBe(false);
    } finally {
      await off.stop();
    }
  });
});

/**
 * Whether no live process of the group is left. Read from /proc: a killed process whose new
 * parent has not reaped it yet is a zombie, which kill(-pgid, 0) would still count.
 */
async function groupGone(pgid: number): Promise<boolean> {
  const alive = () =>
    readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .some((p) => {
        try {
          // "pid (comm) state ppid pgrp …": the fields after the command's closing parenthesis.
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return Number(pgrp) === pgid && state !== 'Z';
        } catch {
          return false;
        }
      });
  for (let i = 0; i < 50; i++) {
    if (!alive()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
