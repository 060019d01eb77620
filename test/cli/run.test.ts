// The CLI's conventions (gh, manage.py, the Prisma CLI), in process: --version, exit status 2
// for usage errors, {"error": …} on standard error under --json, --json on every command,
// projects by name or id, file errors in one line. One test starts the real bin to show
// what only a process shows: the exit status and the streams.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { gatewayIn } from './in-process.ts';

const VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
let dir: string;
let env: NodeJS.ProcessEnv;
const gateway = (...args: string[]) => gatewayIn(env, args);
function rows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dir, 'cli.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
/** Command names listed under "Commands:" in commander's help (continuation lines are indented deeper). */
function subcommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^  ([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-run-'));
  env = { DATABASE_URL: `file:${path.join(dir, 'cli.db')}` };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('usage', () => {
  it("prints package.json's version", async () => {
    expect(await gateway('--version')).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('ends usage errors with exit status 2 and the message, with help after it', async () => {
    const cases: Array<[string[], string]> = [
      [['bogus'], "error: unknown command 'bogus'"],
      [['project', 'list', '--bogus'], "error: unknown option '--bogus'"],
      [['project', 'rename', '--name', 'Web'], "error: required option '--project <id or name>' not specified"],
      [['project', 'set-ping-log-limit', '--project', 'Ops', '--limit', 'many'], "error: option '--limit <n>' argument 'many' is invalid. expected a whole number"],
      [['key', 'rotate', '--project', 'Ops', '--ping', '--badge'], 'error: choose at most one of --read-only, --ping, --badge'],
      [['project', 'delete', '--project', 'Ops'], 'error: refusing to delete without --yes'],
      [[], 'Usage: gateway [options] [command]'],
    ];
    const results = await Promise.all(cases.map(([args]) => gateway(...args)));
    results.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(message);
      expect(r.stderr, args.join(' ')).toContain('Usage: gateway');
    });
    // None of them touched the database.
    expect(existsSync(path.join(dir, 'cli.db'))).toBe(false);
  });

  it('under --json, prints errors as {"error"} alone on standard error, with the same exit status', async () => {
    const [unknown, missing, none] = await Promise.all([gateway('bogus', '--json'), gateway('project', 'rename', '--name', 'Web', '--json'), gateway('--json')]);
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: `${JSON.stringify({ error: "unknown command 'bogus'" })}\n` });
    expect(missing).toEqual({ code: 2, stdout: '', stderr: `${JSON.stringify({ error: "required option '--project <id or name>' not specified" })}\n` });
    // --json belongs to the commands, not to `gateway` itself.
    expect(none).toEqual({ code: 2, stdout: '', stderr: `${JSON.stringify({ error: "unknown option '--json'" })}\n` });
  });

  it('answers --help for every command, and every command takes --json', async () => {
    // Walk the tree from the root help's "Commands:" sections, so commands added later are covered too.
    const leaves: string[] = [];
    let level: string[][] = [[]];
    while (level.length) {
      const results = await Promise.all(level.map((cmd) => gateway(...cmd, '--help')));
      const next: string[][] = [];
      results.forEach((r, i) => {
        const cmd = level[i]!;
        expect([r.code, r.stderr], cmd.join(' ')).toEqual([0, '']);
        expect(r.stdout).toContain(`Usage: gateway${cmd.map((c) => ' ' + c).join('')} [options]`);
        const subs = subcommands(r.stdout);
        if (subs.length === 0) {
          leaves.push(cmd.join(' '));
          expect(r.stdout, cmd.join(' ')).toMatch(/^ {2}--json\s/m);
        }
        for (const sub of subs) next.push([...cmd, sub]);
      });
      level = next;
    }
    expect(leaves).toEqual(expect.arrayContaining([
      'project create', 'project list', 'project rename', 'project delete', 'project set-ping-log-limit', 'project set-nag', 'project set-status-page',
      'key rotate', 'key revoke', 'channel create', 'channel update', 'channel test', 'channel list', 'channel delete', 'campus-token create',
      'account create', 'account set-password', 'account list', 'member add', 'member remove', 'member list', 'migrate', 'export', 'import', 'config check',
    ]));
  });
});

describe('projects by name or id', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    for (const [key, name] of [['ops', 'Ops'], ['web1', 'Web'], ['web2', 'Web'], ['mail', 'Mail']] as const) {
      const r = await gateway('project', 'create', '--name', name, '--json');
      expect(r.code, r.stderr).toBe(0);
      ids[key] = JSON.parse(r.stdout).id;
    }
  });

  it('takes a name in any case, or an id, wherever --project is', async () => {
    const [renamed, limit, channel] = await Promise.all([
      gateway('project', 'rename', '--project', 'ops', '--name', 'Operations', '--json'),
      gateway('project', 'set-ping-log-limit', '--project', ids.web2!, '--limit', '500', '--json'),
      gateway('channel', 'create', '--project', 'Mail', '--kind', 'email', '--value', 'ops@example.org', '--json'),
    ]);
    expect(renamed).toEqual({ code: 0, stdout: `${JSON.stringify({ id: ids.ops, name: 'Operations' })}\n`, stderr: '' });
    expect(limit).toEqual({ code: 0, stdout: `${JSON.stringify({ id: ids.web2, ping_log_limit: 500 })}\n`, stderr: '' });
    expect(channel.code, channel.stderr).toBe(0);
    expect(rows('SELECT id, name, pingLogLimit FROM Project ORDER BY createdAt')).toEqual([
      { id: ids.ops, name: 'Operations', pingLogLimit: 100 },
      { id: ids.web1, name: 'Web', pingLogLimit: 100 },
      { id: ids.web2, name: 'Web', pingLogLimit: 500 },
      { id: ids.mail, name: 'Mail', pingLogLimit: 100 },
    ]);
    expect(rows('SELECT projectId FROM Channel')).toEqual([{ projectId: ids.mail }]);
  });

  it('refuses a name several projects share, listing them, and an unknown one (as JSON under --json)', async () => {
    const [shared, json, unknown] = await Promise.all([
      gateway('key', 'rotate', '--project', 'Web'),
      gateway('member', 'list', '--project', 'web', '--json'),
      gateway('channel', 'list', '--project', 'Nope', '--json'),
    ]);
    const message = `2 projects are named "Web": ${ids.web1} (Web), ${ids.web2} (Web); give the id of the one you mean`;
    expect(shared).toEqual({ code: 1, stdout: '', stderr: `gateway: ${message}\n` });
    expect(json).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error: message.replace('"Web"', '"web"') })}\n` });
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error: 'project not found: Nope' })}\n` });
  });

  it('prints JSON results for the commands that used to print a word', async () => {
    const [nag, page, revoke] = await Promise.all([
      gateway('project', 'set-nag', '--project', 'Mail', '--period', '3600', '--json'),
      gateway('project', 'set-status-page', '--project', 'Mail', '--slug', 'mail', '--json'),
      gateway('key', 'revoke', '--project', 'Mail', '--read-only', '--json'),
    ]);
    expect(JSON.parse(nag.stdout)).toEqual({ project: ids.mail, nag_period: 3600 });
    expect(JSON.parse(page.stdout)).toEqual({ project: ids.mail, slug: 'mail', tags: [], url: 'http://localhost:8000/status/mail' });
    expect(JSON.parse(revoke.stdout)).toEqual({ project: ids.mail, kind: 'api_key_readonly', revoked: true });
    const deleted = await gateway('project', 'delete', '--project', 'Mail', '--yes', '--json');
    expect(JSON.parse(deleted.stdout)).toEqual({ id: ids.mail, name: 'Mail', deleted: true });
    expect(rows('SELECT id FROM Project WHERE id = ?', ids.mail)).toEqual([]);
  });
});

describe('files', () => {
  it('says in one line why a file cannot be written or read, leaving no new database behind', async () => {
    mkdirSync(path.join(dir, 'folder'));
    const missing = path.join(dir, 'no-folder', 'dump.jsonl');
    const fresh = { DATABASE_URL: `file:${path.join(dir, 'import-target.db')}` };
    const [out, outFolder, inMissing, inFolder] = await Promise.all([
      gateway('export', '--out', missing),
      gateway('export', '--out', path.join(dir, 'folder'), '--json'),
      gatewayIn(fresh, ['import', '--in', missing]),
      gatewayIn(fresh, ['import', '--in', path.join(dir, 'folder')]),
    ]);
    expect(out).toEqual({ code: 1, stdout: '', stderr: `gateway: cannot write ${missing}: the folder ${path.dirname(missing)} does not exist\n` });
    expect(outFolder).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error: `cannot write ${path.join(dir, 'folder')}: it is a folder` })}\n` });
    expect(inMissing).toEqual({ code: 1, stdout: '', stderr: `gateway: cannot read ${missing}: there is no such file\n` });
    expect(inFolder).toEqual({ code: 1, stdout: '', stderr: `gateway: cannot read ${path.join(dir, 'folder')}: it is a folder\n` });
    expect(existsSync(path.join(dir, 'import-target.db'))).toBe(false);
  });

  it('exports to a file and imports it, each with a JSON summary under --json', async () => {
    const dump = path.join(dir, 'dump.jsonl');
    const exported = await gateway('export', '--out', dump, '--json');
    expect([exported.code, exported.stderr], exported.stderr).toEqual([0, '']);
    const summary = JSON.parse(exported.stdout);
    expect(summary).toEqual({ rows: expect.any(Number), out: dump });
    const imported = await gatewayIn({ DATABASE_URL: `file:${path.join(dir, 'copy.db')}` }, ['import', '--in', dump, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result.rows).toBe(summary.rows);
    expect(result.tables.Project).toBe(rows('SELECT id FROM Project').length);
  });
});

describe('the process', () => {
  it('exits with the status the run returned, errors on standard error', async () => {
    const processEnv = { PATH: process.env.PATH, DATABASE_URL: `file:${path.join(dir, 'process', 'none.db')}` };
    const [version, usage, refused] = await Promise.all([
      runCli(processEnv, ['--version']),
      runCli(processEnv, ['project', 'list', '--bogus', '--json']),
      runCli(processEnv, ['project', 'list']),
    ]);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(usage).toEqual({ code: 2, stdout: '', stderr: `${JSON.stringify({ error: "unknown option '--bogus'" })}\n` });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^gateway: no database at .*none\.db: create it with `npx gateway migrate`/);
  });
});
