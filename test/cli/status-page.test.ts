// `gateway project set-status-page`: publishing a project's public status page from the
// operator CLI (in process), limiting it to tags, withdrawing it, and the usage and domain errors.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayIn } from './in-process.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
let ops: string;
let other: string;

const gateway = (...args: string[]) => gatewayIn(env, args);
function row(id: string) {
  const db = new Database(path.join(dir, 'cli.db'), { readonly: true });
  try {
    return db.prepare('SELECT statusSlug, statusTags FROM Project WHERE id = ?').get(id) as { statusSlug: string | null; statusTags: string };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-status-'));
  env = { DATABASE_URL: `file:${dir}/cli.db`, SITE_ROOT: 'https://hc.example.org' };
  for (const name of ['Ops', 'Other']) {
    const r = await gateway('project', 'create', '--name', name, '--json');
    expect(r.code, r.stderr).toBe(0);
    if (name === 'Ops') ops = JSON.parse(r.stdout).id;
    else other = JSON.parse(r.stdout).id;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gateway project set-status-page', () => {
  it('publishes the page, limits it to tags, and withdraws it', async () => {
    const on = await gateway('project', 'set-status-page', '--project', ops, '--slug', 'ops', '--tags', 'prod, web');
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toBe('status page at https://hc.example.org/status/ops (checks tagged prod, web)\n');
    expect(row(ops)).toEqual({ statusSlug: 'ops', statusTags: 'prod web' });
    const all = await gateway('project', 'set-status-page', '--project', ops, '--slug', 'ops');
    expect(all.stdout).toBe('status page at https://hc.example.org/status/ops\n');
    expect(row(ops)).toEqual({ statusSlug: 'ops', statusTags: '' });
    const off = await gateway('project', 'set-status-page', '--project', ops, '--off');
    expect([off.code, off.stdout]).toEqual([0, 'status page off\n']);
    expect(row(ops)).toEqual({ statusSlug: null, statusTags: '' });
  });

  it('refuses a bad slug, a slug in use, an unknown project, and --slug with --off (or neither)', async () => {
    await gateway('project', 'set-status-page', '--project', other, '--slug', 'taken');
    const [bad, taken, missing, both, neither] = await Promise.all([
      gateway('project', 'set-status-page', '--project', ops, '--slug', 'Not_A_Slug'),
      gateway('project', 'set-status-page', '--project', ops, '--slug', 'taken'),
      gateway('project', 'set-status-page', '--project', 'nope', '--slug', 'free'),
      gateway('project', 'set-status-page', '--project', ops, '--slug', 'x', '--off'),
      gateway('project', 'set-status-page', '--project', ops),
    ]);
    expect([bad.code, bad.stderr]).toEqual([1, 'gateway: slug must be 1 to 64 lower-case letters, digits or inner hyphens\n']);
    expect([taken.code, taken.stderr]).toEqual([1, 'gateway: status page slug already taken: taken\n']);
    expect([missing.code, missing.stderr]).toEqual([1, 'gateway: project not found: nope\n']);
    for (const usage of [both, neither]) {
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('error: give --slug <slug> or --off');
    }
    expect(row(ops)).toEqual({ statusSlug: null, statusTags: '' });
  });
});
