// Account and member commands of the operator CLI (in process, the password on its standard
// input): what they print, how they fail, and what they store (the person, its email contact
// point, the password hash, memberships, audit rows). One test starts the real bin to show what
// only a process shows: it reads the password from its own standard input and exits without
// waiting for that input to end.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.ts';
import { EMAIL_CLASS } from '../../src/campus/lookup.ts';
import { verifyPassword } from '../../src/identity/passwords.ts';
import { gatewayIn } from './in-process.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
let projectId: string;

const gateway = (...args: string[]) => gatewayIn(env, args);
/** The CLI with `input` as its standard input, which then ends. */
const gatewayWithStdin = (input: string, ...args: string[]) => gatewayIn(env, args, input);
/** Rows of the CLI's database, read directly. */
function rows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dir, 'cli.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const count = (sql: string, ...params: unknown[]) => rows<{ n: number }>(sql, ...params)[0]!.n;
interface PersonRow {
  ID: number;
  Class: string;
  FirstName: string;
  LastName: string;
  Username: string;
  PasswordHash: string;
  AccountLevel: string;
  PrimaryEmailID: number;
}
const person = (username: string) => rows<PersonRow>('SELECT * FROM Person WHERE Username = ?', username)[0]!;
interface AuditRow {
  action: string;
  actorPersonId: number | null;
  actorLabel: string;
  targetKind: string;
  targetId: string;
  targetName: string;
  detail: string | null;
}
const audit = () => rows<AuditRow>('SELECT action, actorPersonId, actorLabel, targetKind, targetId, targetName, detail FROM AuditEntry WHERE projectId = ? ORDER BY id', projectId)
  .map((r) => ({ ...r, detail: r.detail === null ? null : JSON.parse(r.detail) }));
const memberships = () => rows<{ personId: number; role: string }>('SELECT personId, role FROM ProjectMember WHERE projectId = ? ORDER BY personId', projectId);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-accounts-'));
  env = { DATABASE_URL: `file:${dir}/cli.db` };
  const r = await gateway('project', 'create', '--name', 'Ops', '--json');
  expect(r.code, r.stderr).toBe(0);
  projectId = JSON.parse(r.stdout).id;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gateway account', () => {
  let alice: { id: number; username: string; email: string; level: string };

  it('creates an account from the first line of standard input: the person, its primary email, a hash that verifies', async () => {
    const r = await gatewayWithStdin('correct horse battery\r\nsecond line is ignored\n',
      'account', 'create', '--username', 'alice', '--email', 'Alice@Example.org', '--level', 'Staff', '--first-name', 'Alice', '--last-name', 'Liddell', '--password-stdin', '--json');
    expect(r.code, r.stderr).toBe(0);
    alice = JSON.parse(r.stdout);
    expect(alice).toEqual({ id: expect.any(Number), username: 'alice', email: 'alice@example.org', level: 'Staff' });
    const row = person('alice');
    expect(row).toMatchObject({ ID: alice.id, Class: 'Emergence\\People\\User', FirstName: 'Alice', LastName: 'Liddell', AccountLevel: 'Staff' });
    expect(await verifyPassword('correct horse battery', row.PasswordHash)).toBe(true);
    expect(await verifyPassword('correct horse battery\r', row.PasswordHash)).toBe(false);
    expect(row.PasswordHash).not.toContain('correct');
    expect(rows('SELECT ID, Class, Data FROM ContactPoint WHERE PersonID = ?', alice.id)).toEqual([{ ID: row.PrimaryEmailID, Class: EMAIL_CLASS, Data: 'alice@example.org' }]);
  });

  it('prints the account as fields without --json, with level User and names from the username by default', async () => {
    const r = await gatewayWithStdin('bobs password\n', 'account', 'create', '--username', 'bob', '--email', 'bob@example.org', '--password-stdin');
    expect(r.code, r.stderr).toBe(0);
    const bob = person('bob');
    expect(r.stdout).toBe(`id        ${bob.ID}\nusername  bob\nemail     bob@example.org\nlevel     User\n`);
    expect(bob).toMatchObject({ FirstName: 'bob', LastName: '', AccountLevel: 'User' });
    expect(await verifyPassword('bobs password', bob.PasswordHash)).toBe(true);
  });

  it('refuses a taken login and a missing password, storing nothing (the other rules: test/identity/accounts.test.ts)', async () => {
    const people = count('SELECT COUNT(*) AS n FROM Person');
    const points = count('SELECT COUNT(*) AS n FROM ContactPoint');
    const create = (stdin: string, ...args: string[]) => gatewayWithStdin(stdin, 'account', 'create', '--password-stdin', ...args);
    // The refusals the CLI itself makes, and one of the domain's to show how it prints.
    const [username, empty, emptyLine, noFlag] = await Promise.all([
      create('long enough\n', '--username', 'alice', '--email', 'other@example.org'),
      create('', '--username', 'carol', '--email', 'carol@example.org'),
      create('\nlong enough\n', '--username', 'carol', '--email', 'carol@example.org'),
      gatewayWithStdin('long enough\n', 'account', 'create', '--username', 'carol', '--email', 'carol@example.org'),
    ]);
    const refused = { username, empty, emptyLine, noFlag };
    for (const [name, r] of Object.entries(refused)) {
      // A missing option is a usage error (2); the domain's refusals are 1.
      expect(r.code, name).toBe(name === 'noFlag' ? 2 : 1);
      expect(r.stdout, name).toBe('');
    }
    expect(username.stderr).toBe('gateway: that username is taken\n');
    expect(empty.stderr).toBe('gateway: no password on standard input (give it as the first line)\n');
    expect(emptyLine.stderr).toBe(empty.stderr);
    expect(noFlag.stderr).toContain("required option '--password-stdin' not specified");
    expect(count('SELECT COUNT(*) AS n FROM Person')).toBe(people);
    expect(count('SELECT COUNT(*) AS n FROM ContactPoint')).toBe(points);
  });

  it('sets a password by email address and ends every session of that account only', async () => {
    const bob = person('bob');
    // Two token sessions for alice (at her own level), one for bob.
    for (const username of ['alice', 'alice', 'bob']) {
      const r = await gateway('campus-token', 'create', '--level', username === 'alice' ? 'Staff' : 'User', '--username', username);
      expect(r.code, r.stderr).toBe(0);
    }
    const r = await gatewayWithStdin('a new secret\n', 'account', 'set-password', '--account', 'ALICE@example.org', '--password-stdin', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: alice.id, username: 'alice', sessions_ended: 2 });
    const hash = person('alice').PasswordHash;
    expect(await verifyPassword('a new secret', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery', hash)).toBe(false);
    expect(count('SELECT COUNT(*) AS n FROM CampusSession WHERE PersonID = ?', alice.id)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM CampusSession WHERE PersonID = ?', bob.ID)).toBe(1);

    const text = await gatewayWithStdin('another secret\n', 'account', 'set-password', '--account', 'alice', '--password-stdin');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('password set for alice; 0 sessions ended\n');
  });

  it('refuses to set a password for an unknown account or without one, changing nothing', async () => {
    const before = person('alice').PasswordHash;
    const [unknown, empty] = await Promise.all([
      gatewayWithStdin('long enough\n', 'account', 'set-password', '--account', 'nobody', '--password-stdin'),
      gatewayWithStdin('', 'account', 'set-password', '--account', 'alice', '--password-stdin'),
    ]);
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'gateway: no account with username or email nobody\n' });
    expect(empty).toMatchObject({ code: 1, stdout: '', stderr: 'gateway: no password on standard input (give it as the first line)\n' });
    expect(person('alice').PasswordHash).toBe(before);
  });
});

describe('gateway member', () => {
  const add = (...args: string[]) => gateway('member', 'add', '--project', projectId, ...args);
  const remove = (...args: string[]) => gateway('member', 'remove', '--project', projectId, ...args);

  it('adds accounts by username or email, with an audit entry by the CLI', async () => {
    const alice = person('alice');
    const bob = person('bob');
    const r = await add('--account', 'alice', '--role', 'owner', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ project: projectId, person_id: alice.ID, username: 'alice', role: 'owner', previous_role: null });
    const text = await add('--account', 'BOB@example.org', '--role', 'regular');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('bob in Ops: added as regular\n');
    expect(memberships()).toEqual([{ personId: alice.ID, role: 'owner' }, { personId: bob.ID, role: 'regular' }]);
    expect(audit()).toEqual([
      { action: 'member.added', actorPersonId: null, actorLabel: 'CLI', targetKind: 'member', targetId: String(alice.ID), targetName: 'alice', detail: { role: 'owner' } },
      { action: 'member.added', actorPersonId: null, actorLabel: 'CLI', targetKind: 'member', targetId: String(bob.ID), targetName: 'bob', detail: { role: 'regular' } },
    ]);
  });

  it('changes a member\'s role (audited as member.role_changed), and an unchanged role writes nothing', async () => {
    const bob = person('bob');
    const r = await add('--account', 'bob', '--role', 'manager');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('bob in Ops: regular → manager\n');
    const entries = audit().length;
    const again = await add('--account', 'bob', '--role', 'manager', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ role: 'manager', previous_role: 'manager' });
    expect(memberships()).toContainEqual({ personId: bob.ID, role: 'manager' });
    const log = audit();
    expect(log).toHaveLength(entries);
    expect(log.at(-1)).toMatchObject({ action: 'member.role_changed', actorLabel: 'CLI', targetId: String(bob.ID), targetName: 'bob' });
  });

  it('refuses an unknown project, account or role without storing anything', async () => {
    const before = { members: memberships(), entries: audit().length };
    const [noProject, noAccount, badRole] = await Promise.all([
      gateway('member', 'add', '--project', 'nope', '--account', 'alice', '--role', 'regular'),
      add('--account', 'nobody@example.org', '--role', 'regular'),
      add('--account', 'bob', '--role', 'boss'),
    ]);
    expect(noProject).toMatchObject({ code: 1, stderr: 'gateway: project not found: nope\n' });
    expect(noAccount).toMatchObject({ code: 1, stderr: 'gateway: no account with username or email nobody@example.org\n' });
    expect(badRole).toMatchObject({ code: 1, stderr: 'gateway: role must be one of owner, manager, regular, readonly\n' });
    expect({ members: memberships(), entries: audit().length }).toEqual(before);
  });

  it('lists members owner first, as a table and as JSON', async () => {
    const [json, text] = await Promise.all([gateway('member', 'list', '--project', projectId, '--json'), gateway('member', 'list', '--project', projectId)]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { person_id: person('alice').ID, username: 'alice', name: 'Alice Liddell', role: 'owner', since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { person_id: person('bob').ID, username: 'bob', name: 'bob', role: 'manager', since: expect.any(String) },
    ]);
    expect(text.stdout.split('\n')[0]).toMatch(/^person_id\s+username\s+name\s+role\s+since$/);
    expect(text.stdout).toMatch(/\balice\s+Alice Liddell\s+owner\b/);
    const unknown = await gateway('member', 'list', '--project', 'nope');
    expect(unknown).toMatchObject({ code: 1, stderr: 'gateway: project not found: nope\n' });
  });

  it('lists accounts with their email and their projects', async () => {
    const r = await gateway('account', 'list', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: person('alice').ID, username: 'alice', email: 'alice@example.org', level: 'Staff', projects: [{ id: projectId, name: 'Ops', role: 'owner' }] },
      { id: person('bob').ID, username: 'bob', email: 'bob@example.org', level: 'User', projects: [{ id: projectId, name: 'Ops', role: 'manager' }] },
    ]);
    const text = await gateway('account', 'list');
    expect(text.stdout).toMatch(/^id\s+username\s+email\s+level\s+projects\n/);
    expect(text.stdout).toMatch(/\bbob\s+bob@example\.org\s+User\s+Ops \(manager\)\n/);
  });

  it('hands ownership over: the new owner in, the old owner a manager', async () => {
    const r = await add('--account', 'bob', '--role', 'owner');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('bob in Ops: manager → owner (alice is now a manager)\n');
    expect(memberships()).toEqual([{ personId: person('alice').ID, role: 'manager' }, { personId: person('bob').ID, role: 'owner' }]);
  });

  it('removes a member (audited), refuses the owner without --force, and removes the owner with it', async () => {
    const alice = person('alice');
    const bob = person('bob');
    const r = await remove('--account', 'alice', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ project: projectId, person_id: alice.ID, username: 'alice', role: 'manager' });
    expect(audit().at(-1)).toEqual({ action: 'member.removed', actorPersonId: null, actorLabel: 'CLI', targetKind: 'member', targetId: String(alice.ID), targetName: 'alice', detail: { role: 'manager' } });

    const [owner, notMember] = await Promise.all([remove('--account', 'bob'), remove('--account', 'alice')]);
    expect(owner.code).toBe(1);
    expect(owner.stderr).toBe('gateway: bob owns Ops: make another member owner first (gateway member add --role owner), or pass --force to leave the project without an owner\n');
    expect(notMember).toMatchObject({ code: 1, stderr: 'gateway: alice is not a member of Ops\n' });
    expect(memberships()).toEqual([{ personId: bob.ID, role: 'owner' }]);

    const forced = await remove('--account', 'bob', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toBe('removed bob (owner) from Ops; the project has no owner now: give it one with gateway member add --role owner\n');
    expect(memberships()).toEqual([]);
    expect(audit().at(-1)).toMatchObject({ action: 'member.removed', actorLabel: 'CLI', targetId: String(bob.ID), targetName: 'bob' });
    // The operator's way back: a new owner.
    const back = await add('--account', 'alice', '--role', 'owner');
    expect(back.code, back.stderr).toBe(0);
    expect(memberships()).toEqual([{ personId: alice.ID, role: 'owner' }]);
  });
});

describe('the process', () => {
  /** The real bin with `line` written to a standard input that stays open until the process has exited. */
  function gatewayProcess(line: string, ...args: string[]): Promise<CliResult> {
    const child = spawn(process.execPath, ['bin/gateway.mjs', ...args], { env: { PATH: process.env.PATH, DATABASE_URL: env.DATABASE_URL } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // A process that exits before reading closes the pipe: the exit status says why, not EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.write(line);
    return new Promise((resolve, reject) => {
      // Killed, so that a process waiting for the end of its input fails the test rather than hangs it.
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`still running after 15 s with its standard input open; stderr: ${stderr}`));
      }, 15_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        child.stdin.destroy();
        resolve({ code: code ?? 1, stdout, stderr });
      });
    });
  }

  it('reads the password from the first line of its standard input and exits while that input is still open', async () => {
    const r = await gatewayProcess('from a pipe\n', 'account', 'set-password', '--account', 'alice', '--password-stdin', '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ id: person('alice').ID, username: 'alice', sessions_ended: 0 });
    expect(await verifyPassword('from a pipe', person('alice').PasswordHash)).toBe(true);
  }, 30_000);
});
