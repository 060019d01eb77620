// Group commit: many pings share one transaction, each is answered after its transaction
// commits, and a transaction that fails or loses a race costs no acknowledged ping.
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteFilePath } from '../../../src/db/adapter.ts';
import type { PingEvent, FlipEvent } from '../../../src/events/bus.ts';
import { PingIngest } from '../../../src/monitoring/pings/ingest.ts';
import { sqlitePingStore } from '../../../src/monitoring/pings/sqlite-store.ts';
import type { PingStore } from '../../../src/monitoring/pings/store.ts';
import { createWorld, T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { postgresUnderTest } from '../../helpers/postgres.ts';

const w = useWorld();

async function newChecks(count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) codes.push((await w.api('POST', '/api/v2/checks/', { body: { name: `g${i}`, timeout: 60, grace: 60 } })).json.uuid);
  return codes;
}

function countStatements() {
  const seen: string[] = [];
  const stop = w.app.onStatement((sql) => seen.push(sql));
  return { seen, stop };
}

describe('group commit', () => {
  it('writes 300 pings submitted together over 30 checks in one transaction, numbered per check', async () => {
    const codes = await newChecks(30);
    w.clock.set(T0);
    const events: PingEvent[] = [];
    const flips: FlipEvent[] = [];
    const onPing = (e: PingEvent) => events.push(e);
    const onFlip = (e: FlipEvent) => flips.push(e);
    w.app.deps.events.on('ping', onPing);
    w.app.deps.events.on('flip', onFlip);
    const { seen, stop } = countStatements();
    await Promise.all(Array.from({ length: 300 }, (_, i) => w.app.deps.pings.submit({ code: codes[i % 30]! }, pingRequest())));
    stop();
    w.app.deps.events.off('ping', onPing);
    w.app.deps.events.off('flip', onFlip);

    // One transaction, whatever the number of pings.
    expect(seen.filter((s) => s.startsWith('BEGIN'))).toHaveLength(1);
    expect(seen.filter((s) => s === 'COMMIT')).toHaveLength(1);
    const checks = await w.app.db.check.findMany({ where: { code: { in: codes } }, include: { pings: { orderBy: { n: 'asc' } } } });
    for (const c of checks) {
      expect(c.nPings).toBe(10);
      expect(c.status).toBe('up');
      expect(c.pings.map((p) => p.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    // Events carry the stored rows' ids, and one new->up flip per check.
    expect(events).toHaveLength(300);
    const stored = new Set(checks.flatMap((c) => c.pings.map((p) => p.id)));
    expect(events.every((e) => stored.has(e.ping.id))).toBe(true);
    expect(flips.filter((f) => codes.includes(f.checkCode)).map((f) => `${f.oldStatus}>${f.newStatus}`)).toEqual(Array(30).fill('new>up'));
  });

  it('answers simultaneous HTTP pings each with 200 once stored', async () => {
    const codes = await newChecks(5);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => w.ping(`/ping/${codes[i % 5]}`)));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const counts = await w.app.db.check.findMany({ where: { code: { in: codes } }, select: { nPings: true, _count: { select: { pings: true } } } });
    expect(counts.map((c) => [c.nPings, c._count.pings])).toEqual(Array(5).fill([10, 10]));
  });

  it.skipIf(postgresUnderTest())('reads a check through the driver exactly as Prisma reads it (SQLite only: postgres-ingest.test.ts)', async () => {
    const created = await w.api('POST', '/api/v2/checks/', {
      body: { name: 'full', tags: 'a b', desc: 'd', schedule: '5 4 * * *', tz: 'Europe/Riga', grace: 120, manual_resume: true, methods: 'POST', subject: 'ok', subject_fail: 'bad', filter_body: true },
    });
    expect(created.status).toBe(201);
    const code = created.json.uuid as string;
    await w.ping(`/ping/${code}/start`, { method: 'POST' });
    const viaPrisma = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    const viaDriver = await sqlitePingStore(w.app.exclusive).transaction((tx) => [tx.checkByCode(code), tx.checkById(viaPrisma.id)]);
    expect(viaDriver).toEqual([viaPrisma, viaPrisma]);
    expect(viaPrisma.lastStart).toBeInstanceOf(Date);
  });

  it('answers 404 for an unknown check in a batch and still stores the others', async () => {
    const [code] = await newChecks(1);
    const missing = '00000000-0000-4000-8000-000000000000';
    const [a, b, c] = await Promise.all([w.ping(`/ping/${code}`), w.ping(`/ping/${missing}`), w.ping(`/ping/${code}/fail`)]);
    expect([a.status, b.status, c.status]).toEqual([200, 404, 200]);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: { orderBy: { n: 'asc' } } } });
    expect(check.pings.map((p) => p.kind)).toEqual(['success', 'fail']);
    expect(check.status).toBe('down');
  });

  it.skipIf(postgresUnderTest())('retries a batch the database refused as busy, and answers once it commits (SQLite only: postgres-ingest.test.ts)', async () => {
    const [code] = await newChecks(1);
    const store = sqlitePingStore(w.app.exclusive);
    let refusals = 1;
    const flaky: PingStore = {
      parallelBatches: 1,
      transaction: (work) => {
        if (refusals-- > 0) return Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
        return store.transaction(work);
      },
    };
    const ingest = new PingIngest(w.app.deps, flaky);
    await ingest.submit({ code: code! }, pingRequest());
    expect(refusals).toBe(-1);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: true } });
    expect(check).toMatchObject({ nPings: 1, status: 'up' });
    expect(check.pings).toHaveLength(1);
  });

  it.skipIf(postgresUnderTest())('fails every ping of a batch whose transaction fails, and stores none of them (SQLite only: postgres-ingest.test.ts)', async () => {
    const [code] = await newChecks(1);
    const store = sqlitePingStore(w.app.exclusive);
    // The transaction writes, then fails before committing: everything is rolled back.
    const failing: PingStore = {
      parallelBatches: 1,
      transaction: (work) =>
        store.transaction((tx) => {
          work(tx);
          throw new Error('disk I/O error');
        }),
    };
    const ingest = new PingIngest(w.app.deps, failing);
    const results = await Promise.allSettled([ingest.submit({ code: code! }, pingRequest()), ingest.submit({ code: code! }, pingRequest())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toBe('disk I/O error');
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: true } });
    expect(check).toMatchObject({ nPings: 0, status: 'new' });
    expect(check.pings).toHaveLength(0);
  });

  it('prunes the ping log when a batch crosses a multiple of 100', async () => {
    const [code] = await newChecks(1);
    const project = await w.app.db.check.findUniqueOrThrow({ where: { code }, select: { projectId: true } });
    await w.app.db.project.update({ where: { id: project.projectId }, data: { pingLogLimit: 20 } });
    try {
      await Promise.all(Array.from({ length: 150 }, () => w.ping(`/ping/${code}`)));
      const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: { orderBy: { n: 'asc' } } } });
      expect(check.nPings).toBe(150);
      // Whatever the batching, the 20 newest pings are kept and nothing from before a prune point
      // minus the limit survives.
      expect(check.pings.at(-1)!.n).toBe(150);
      expect(check.pings.map((p) => p.n).slice(-20)).toEqual(Array.from({ length: 20 }, (_, i) => 131 + i));
      expect(check.pings[0]!.n).toBeGreaterThan(60);
    } finally {
      await w.app.db.project.update({ where: { id: project.projectId }, data: { pingLogLimit: 100 } });
    }
  });

  it.skipIf(postgresUnderTest())('commits and answers every queued ping before the app stops (SQLite only: postgres-ingest.test.ts)', async () => {
    const other = await createWorld();
    const code = (await other.api('POST', '/api/v2/checks/', { body: { name: 'late' } })).json.uuid as string;
    const results = Promise.all(Array.from({ length: 50 }, () => other.app.deps.pings.submit({ code }, pingRequest())));
    await other.app.stop();
    await results;
    const file = sqliteFilePath(other.databaseUrl);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM "Ping"').get()).toEqual({ n: 50 });
    } finally {
      db.close();
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

function pingRequest() {
  return { signal: 'success' as const, method: 'GET', scheme: 'http', remoteAddr: '127.0.0.1', ua: 'test', body: Buffer.alloc(0) };
}
