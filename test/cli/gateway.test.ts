// The operator CLI as a user runs it: the real bin in a child process. (Help, usage errors and
// the other conventions are tested in process: run.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/cli.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/monitoring/projects/keys.ts';

let dir: string;
let env: NodeJS.ProcessEnv;

const gateway = (...args: string[]) => runCli(env, args);
const sqlite = () => new Database(path.join(dir, 'db', 'cli.db'), { readonly: true });

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-'));
  env = { ...process.env, DATABASE_URL: `file:${dir}/db/cli.db` };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gateway CLI', () => {
  let project: { id: string; name: string; api_key: string; api_key_readonly: string; ping_key: string; badge_key: string };

  it('creates a project on a fresh database and prints its keys once, storing only hashes of the secret ones', async () => {
    const r = await gateway('project', 'create', '--name', 'Ops', '--json');
    expect(r.code).toBe(0);
    project = JSON.parse(r.stdout);
    expect(Object.keys(project)).toEqual(['id', 'name', 'api_key', 'api_key_readonly', 'ping_key', 'badge_key']);
    expect(project.api_key).toMatch(/^hcw_[A-Za-z0-9]{28}$/);
    expect(project.api_key_readonly).toMatch(/^hcr_[A-Za-z0-9]{28}$/);
    expect(project.ping_key).toHaveLength(32);
    expect(project.badge_key).toHaveLength(32);
    const db = sqlite();
    const row = db.prepare('SELECT * FROM Project WHERE id = ?').get(project.id) as Record<string, string>;
    db.close();
    expect(row.apiKeyHash).toBe(hashKey(project.api_key));
    const dump = JSON.stringify(row);
    for (const k of ['api_key', 'api_key_readonly', 'ping_key'] as const) expect(dump).not.toContain(project[k]);
    // The badge key is public (badge URLs carry it) and stored in clear, as Healthchecks does.
    expect(row.badgeKey).toBe(project.badge_key);
  });

  it('lists projects', async () => {
    const r = await gateway('project', 'list', '--json');
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: project.id, name: 'Ops', checks: 0 })]);
  });

  it('rotates a key: a new 32-character key, a new stored hash', async () => {
    const before = sqlite();
    const old = before.prepare('SELECT apiKeyReadonlyHash FROM Project WHERE id = ?').get(project.id) as { apiKeyReadonlyHash: string };
    before.close();
    const r = await gateway('key', 'rotate', '--project', project.id, '--read-only', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ project: project.id, kind: 'api_key_readonly' });
    expect(out.key).toHaveLength(32);
    expect(out.key).not.toBe(project.api_key_readonly);
    const db = sqlite();
    const row = db.prepare('SELECT apiKeyReadonlyHash FROM Project WHERE id = ?').get(project.id) as { apiKeyReadonlyHash: string };
    db.close();
    expect(row.apiKeyReadonlyHash).not.toBe(old.apiKeyReadonlyHash);
    expect(row.apiKeyReadonlyHash).toBe(hashKey(out.key));
  });

  it('creates channels, and refuses bad input without storing anything', async () => {
    const r = await gateway('channel', 'create', '--project', project.id, '--kind', 'email', '--value', 'ops@example.org', '--name', 'Ops mail', '--json');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(Object.keys(c)).toEqual(['id', 'name', 'kind']);
    expect(c).toMatchObject({ name: 'Ops mail', kind: 'email' });
    expect(c.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The failures only read the database, so they run side by side (each start costs ~1 s).
    const [badKind, noProject, rotateNoProject, deleteUnconfirmed] = await Promise.all([
      gateway('channel', 'create', '--project', project.id, '--kind', 'fax', '--value', 'x'),
      gateway('channel', 'create', '--project', 'nope', '--kind', 'email', '--value', 'a@b.co'),
      gateway('key', 'rotate', '--project', 'nope'),
      gateway('project', 'delete', '--project', project.id),
    ]);
    expect(badKind.code).toBe(1);
    expect(badKind.stderr).toContain('kind must be one of email, webhook, sms');
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain('project not found: nope');
    expect(rotateNoProject.code).toBe(1);
    expect(rotateNoProject.stderr).toContain('project not found: nope');
    expect(deleteUnconfirmed.code).toBe(2);
    expect(deleteUnconfirmed.stderr).toContain('error: refusing to delete without --yes');
    const db = sqlite();
    const rows = db.prepare('SELECT code, projectId, kind, value, name FROM Channel').all();
    const projects = (db.prepare('SELECT COUNT(*) AS n FROM Project').get() as { n: number }).n;
    db.close();
    expect(rows).toEqual([{ code: c.id, projectId: project.id, kind: 'email', value: 'ops@example.org', name: 'Ops mail' }]);
    expect(projects).toBe(1);
  });
});

describe('gateway campus-token', () => {
  it('creates a service account token that authenticates campus requests', async () => {
    const r = await gateway('campus-token', 'create', '--level', 'Staff', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['token', 'person_id']);
    expect(out.token).toMatch(/^[a-f][0-9a-f]{31}$/);
    const db = sqlite();
    const person = db.prepare('SELECT AccountLevel FROM Person WHERE ID = ?').get(out.person_id) as { AccountLevel: string };
    const sessions = db.prepare('SELECT TokenHash FROM CampusSession WHERE PersonID = ?').all(out.person_id) as Array<{ TokenHash: string }>;
    db.close();
    expect(person.AccountLevel).toBe('Staff');
    expect(sessions.map((s) => s.TokenHash)).toEqual([hashKey(out.token)]);
    const bad = await gateway('campus-token', 'create', '--level', 'Emperor');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('level must be one of');
  });
});
