// `gateway import-healthchecks --database`: the instance read from its own database, SQLite
// (Django's storage: UTC text datetimes, microsecond durations, 32-digit UUIDs) or PostgreSQL
// (timestamptz, interval, uuid, bytea), makes the same projects, checks, pings, flips,
// notifications, channels and accounts as its dumpdata file does.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import type { World } from '../../helpers/world.ts';
import { testPostgresUrl } from '../../helpers/postgres.ts';
import { gatewayIn } from '../../cli/in-process.ts';
import { createDatabase, dropDatabase, withDatabase } from '../../../src/db/postgres/admin.ts';
import { writePostgresInstance, writeSqliteInstance } from './instance-db.ts';

const FIXTURE = path.join(import.meta.dirname, '../../fixtures/healthchecks/dump.json');
const dump = JSON.parse(readFileSync(FIXTURE, 'utf8'));
const SECRET_KEY = 'django-insecure-hc-old-instance-4f8a1b2c3d4e5f60718293a4b5c6d7e8';

const fromDump = useWorld();
const fromDatabase = useWorld();
const importInto = (w: World, ...args: string[]) => gatewayIn({ DATABASE_URL: w.databaseUrl }, ['import-healthchecks', '--secret-key', SECRET_KEY, '--json', ...args]);

/** What an import made, without this database's own ids and the server's address. */
async function imported(w: World) {
  const db = w.app.db;
  const checks = await db.check.findMany({ orderBy: { code: 'asc' }, where: { project: { name: { notIn: ['Alice', 'Bob'] } } }, include: { pings: { orderBy: { n: 'asc' } }, flips: { orderBy: { createdAt: 'asc' } }, channels: { include: { channel: true } } } });
  const strip = <T extends Record<string, unknown>>(row: T, ...keys: string[]) => Object.fromEntries(Object.entries(row).filter(([k]) => !['id', 'checkId', 'channelId', 'flipId', ...keys].includes(k)));
  return {
    projects: (await db.project.findMany({ where: { name: { notIn: ['Alice', 'Bob'] } }, orderBy: { id: 'asc' } })).map((p) => strip(p, 'createdAt')),
    checks: checks.map((c) => ({ ...strip(c, 'pings', 'flips', 'channels'), pings: c.pings.map((p) => strip(p)), flips: c.flips.map((f) => strip(f)), channels: c.channels.map((cc) => cc.channel.code).sort() })),
    channels: (await db.channel.findMany({ where: { project: { name: { notIn: ['Alice', 'Bob'] } } }, orderBy: { code: 'asc' } })).map((c) => strip(c, 'projectId')),
    // The alerts queued for Healthchecks' unsent flip get their code and time here, at the import.
    notifications: (await db.notification.findMany({ orderBy: { code: 'asc' } }))
      .map((n) => (n.state === 'pending' ? strip(n, 'code', 'createdAt', 'nextAttemptAt') : strip(n)))
      .map((n) => JSON.stringify(n))
      .sort(),
    people: (await db.person.findMany({ where: { Username: { not: null } }, orderBy: { Username: 'asc' }, include: { reportProfile: true, totp: true, securityKeys: true, projectMemberships: true } })).map((p) => ({
      username: p.Username,
      names: [p.FirstName, p.LastName],
      level: p.AccountLevel,
      password: p.PasswordHash,
      created: p.Created,
      profile: p.reportProfile && strip(p.reportProfile, 'personId'),
      totp: p.totp?.secret ?? null,
      keys: p.securityKeys.map((k) => [k.credentialId, k.publicKey, k.name]),
      roles: p.projectMemberships.map((m) => [m.projectId, m.role]).sort(),
    })),
  };
}

let file: string;

beforeAll(async () => {
  expect((await importInto(fromDump, '--file', FIXTURE)).code).toBe(0);
  file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hc-instance-')), 'hc.sqlite');
  writeSqliteInstance(file, dump);
});

describe('import-healthchecks --database', () => {
  it('reads the same instance from its SQLite file as from its dump', async () => {
    const res = await importInto(fromDatabase, '--database', file);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).counts.checks.created).toBe(7);
    const [a, b] = [await imported(fromDump), await imported(fromDatabase)];
    expect(b.checks).toHaveLength(7);
    // Account passwords are Django's own hashes until first use: the same in both.
    expect(b).toEqual(a);
    const api = await fromDatabase.api('GET', '/api/v3/checks/', { key: 'pB7nM2xK9-qW4eR8tY1uI5oP3aS6dF0g' });
    expect(api.json.checks.map((c: any) => [c.name, c.status])).toEqual([
      ['Web health', 'new'],
      ['Sitemap', 'grace'],
      ['Queue worker', 'down'],
    ]);
  });

  it('takes the SQLite file as an sqlite:/// URL too, and a second read changes nothing', async () => {
    const res = await importInto(fromDatabase, '--database', `sqlite://${file}`);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).projects.map((p: { outcome: string }) => p.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('refuses what is not a Healthchecks database, in one sentence', async () => {
    const res = await gatewayIn({ DATABASE_URL: fromDatabase.databaseUrl }, ['import-healthchecks', '--database', path.join(path.dirname(file), 'missing.sqlite')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^gateway: import refused: cannot read the SQLite database .*missing\.sqlite/);
    const usage = await gatewayIn({ DATABASE_URL: fromDatabase.databaseUrl }, ['import-healthchecks']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('give --file <dump.json> or --database <url>');
  });

  it.runIf(testPostgresUrl())('reads the same instance from PostgreSQL (the second read of it changes nothing)', async () => {
    const admin = testPostgresUrl()!;
    const name = `hc_instance_${randomBytes(4).toString('hex')}`;
    await createDatabase(admin, name);
    try {
      const url = withDatabase(admin, name);
      await writePostgresInstance(url, dump);
      const res = await importInto(fromDump, '--database', url);
      expect(res.stderr).toBe('');
      const report = JSON.parse(res.stdout);
      expect(report.projects.map((p: { outcome: string }) => p.outcome)).toEqual(['unchanged', 'unchanged']);
      expect(report.counts.pings).toEqual({ created: 0, updated: 0, unchanged: 12 });
    } finally {
      await dropDatabase(admin, name);
    }
  });
});
