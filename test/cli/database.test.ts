// Which database the CLI uses (in process): commands that read or change what exists refuse a
// missing, unmigrated or out-of-date database with a sentence saying how to make it, creating
// nothing; the first-run commands (project create, account create) create and migrate it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayIn } from './in-process.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-db-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIGRATE = 'run `npx gateway migrate`';

describe('commands on a database that is not there', () => {
  it('refuse to read or change it, naming the file and the command that creates it, and create nothing', async () => {
    const file = path.join(dir, 'missing', 'gateway.db');
    const env = { DATABASE_URL: `file:${file}` };
    const commands = [
      ['project', 'list'],
      ['account', 'list'],
      ['member', 'list', '--project', 'Ops'],
      ['channel', 'list', '--project', 'Ops'],
      ['export'],
      ['key', 'rotate', '--project', 'Ops'],
      ['project', 'rename', '--project', 'Ops', '--name', 'Web'],
    ];
    const results = await Promise.all(commands.map((args) => gatewayIn(env, args)));
    results.forEach((r, i) => {
      expect([r.code, r.stdout, r.stderr], commands[i]!.join(' ')).toEqual([
        1,
        '',
        `gateway: no database at ${file}: create it with \`npx gateway migrate\` (the server also creates it at start), or set DATABASE_URL to the database you meant\n`,
      ]);
    });
    expect(existsSync(path.dirname(file))).toBe(false);
    const json = await gatewayIn(env, ['project', 'list', '--json']);
    expect([json.code, json.stdout]).toEqual([1, '']);
    expect(JSON.parse(json.stderr).error).toMatch(/^no database at .*missing\/gateway\.db: create it with `npx gateway migrate`/);
  });

  it('name a relative path in full, as written in DATABASE_URL', async () => {
    const r = await gatewayIn({ DATABASE_URL: 'file:./no-such-folder/gateway.db' }, ['project', 'list']);
    expect(r.stderr).toBe(`gateway: no database at ${path.resolve('no-such-folder/gateway.db')} (DATABASE_URL=file:./no-such-folder/gateway.db): create it with \`npx gateway migrate\` (the server also creates it at start), or set DATABASE_URL to the database you meant\n`);
    expect(existsSync('no-such-folder')).toBe(false);
  });

  it("refuse a file without the gateway's tables, and a database that needs a migration", async () => {
    const other = path.join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
    db.close();
    const foreign = await gatewayIn({ DATABASE_URL: `file:${other}` }, ['project', 'list']);
    expect([foreign.code, foreign.stderr]).toEqual([1, `gateway: the database at ${other} has none of the gateway's tables: ${MIGRATE} to create them, or set DATABASE_URL to the database you meant\n`]);

    const old = path.join(dir, 'old.db');
    const migrated = await gatewayIn({ DATABASE_URL: `file:${old}` }, ['migrate', '--json']);
    expect(migrated.code, migrated.stderr).toBe(0);
    const applied: string[] = JSON.parse(migrated.stdout).applied;
    expect(applied.length).toBeGreaterThan(1);
    // As if the code were one migration newer than the database.
    const last = applied.at(-1)!;
    const file = new Database(old);
    file.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(last);
    file.close();
    const r = await gatewayIn({ DATABASE_URL: `file:${old}` }, ['project', 'list']);
    expect([r.code, r.stderr]).toEqual([1, `gateway: the database at ${old} needs a migration (${last}): ${MIGRATE} (the server also migrates at start)\n`]);
  });
});

describe('first-run commands', () => {
  it('create and migrate the database (project create, account create), after which the others use it', async () => {
    const file = path.join(dir, 'fresh', 'gateway.db');
    const env = { DATABASE_URL: `file:${file}` };
    const [created, account] = await Promise.all([
      gatewayIn(env, ['project', 'create', '--name', 'Ops', '--json']),
      gatewayIn({ DATABASE_URL: `file:${path.join(dir, 'fresh2.db')}` }, ['account', 'create', '--username', 'ada', '--email', 'ada@example.org', '--password-stdin', '--json'], 'a long passphrase\n'),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout);
    expect(existsSync(file)).toBe(true);
    expect(account.code, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout)).toMatchObject({ username: 'ada', email: 'ada@example.org' });
    const list = await gatewayIn(env, ['project', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id, name: 'Ops' })]);
  });
});
