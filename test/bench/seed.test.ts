// The benchmarks' databases: a fresh one per suite (PostgreSQL: created, then dropped with the
// run, and those of killed runs swept), and checks seeded in bulk that read back through Prisma
// exactly as shaped, on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createContext, type BenchDb } from '../../bench/suites/context.ts';
import { seedChecks, seedProject } from '../../bench/lib/seed.ts';
import { queryNumber } from '../../bench/lib/query.ts';
import { createDb } from '../../src/db/client.ts';
import { createDatabase, databaseExists, databaseName } from '../../src/db/postgres/admin.ts';
import { uniqueKeyFor } from '../../src/monitoring/checks/derived.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';

const admin = testPostgresUrl();
const dbs: Array<[BenchDb, boolean]> = [
  ['sqlite', true],
  ['postgres', admin !== undefined],
];
const contextFor = (db: BenchDb) => createContext({ smoke: true, db, dbUrl: admin ?? 'postgresql://unused@127.0.0.1/x', redisUrl: 'redis://127.0.0.1:6379' });

describe.each(dbs)('bench seeding on %s', (db, available) => {
  it.skipIf(!available)(`stores every check as shaped, in order${available ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`, async () => {
    const ctx = contextFor(db);
    try {
      const url = await ctx.database('seed test');
      const project = await seedProject(url);
      const base = Date.UTC(2026, 0, 5, 10, 0, 0, 123);
      // More than one PostgreSQL chunk (20,000 rows), with and without the optional columns.
      const count = 25_000;
      const codes = await seedChecks(url, project.id, count, (i) => (i % 2 ? { status: 'up', lastPing: base + i, alertAfter: base + 2 * i, timeout: 60 + i, grace: 7 } : {}));
      expect(codes).toHaveLength(count);
      expect(new Set(codes).size).toBe(count);
      await seedChecks(url, project.id, 3, () => ({}), 'due ');

      const prisma = createDb(url);
      try {
        const [odd, even, due] = await Promise.all([
          prisma.check.findUniqueOrThrow({ where: { code: codes[24_999]! } }),
          prisma.check.findUniqueOrThrow({ where: { code: codes[20_000]! } }),
          prisma.check.findMany({ where: { name: { startsWith: 'due ' } }, orderBy: { id: 'asc' } }),
        ]);
        expect(odd).toMatchObject({ name: 'check 24999', projectId: project.id, status: 'up', timeout: 25_059, grace: 7, uniqueKey: uniqueKeyFor(codes[24_999]!) });
        expect(odd.lastPing).toEqual(new Date(base + 24_999));
        expect(odd.alertAfter).toEqual(new Date(base + 2 * 24_999));
        expect(even).toMatchObject({ name: 'check 20000', status: 'new', timeout: 86400, grace: 3600, lastPing: null, alertAfter: null });
        expect(due.map((c) => c.name)).toEqual(['due 0', 'due 1', 'due 2']);
      } finally {
        await prisma.$disconnect();
      }
      expect(await queryNumber(url, 'SELECT COUNT(*) AS n FROM "Check"')).toBe(count + 3);
      expect(await queryNumber(url, `SELECT COALESCE(SUM("grace"), 0) AS n FROM "Check" WHERE "status" = 'up'`)).toBe(7 * (count / 2));
    } finally {
      await ctx.cleanup();
    }
  }, 60_000);
});

describe.skipIf(!admin)(`bench databases on PostgreSQL${admin ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`, () => {
  it('are fresh per suite and dropped at cleanup; those of a killed run are swept', async () => {
    // A bench process that is gone: its pid is free, its database was never dropped.
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const orphan = `gateway_bench_${gone}_abcdef_ping`;
    await createDatabase(admin!, orphan);
    const ctx = contextFor('postgres');
    let names: string[] = [];
    try {
      const urls = [await ctx.database('ping'), await ctx.database('ping')];
      names = urls.map(databaseName);
      expect(names[0]).not.toBe(names[1]);
      expect(names[0]).toMatch(new RegExp(`^gateway_bench_${process.pid}_[0-9a-f]{6}_ping$`));
      expect(await Promise.all(names.map((n) => databaseExists(admin!, n)))).toEqual([true, true]);
      expect(await databaseExists(admin!, orphan)).toBe(false);
      expect(await queryNumber(urls[0]!, 'SELECT COUNT(*) AS n FROM pg_tables WHERE schemaname = \'public\'')).toBe(0);
    } finally {
      await ctx.cleanup();
    }
    expect(await Promise.all(names.map((n) => databaseExists(admin!, n)))).toEqual([false, false]);
  });
});
