// Ping ingest on PostgreSQL (the TEST_DB=postgres pass): the store reads checks as Prisma does,
// a failed or refused batch costs no acknowledged ping, two batches of one instance in flight
// at once (and two instances, two pools) writing pings to the same checks lose nothing and
// number every check's pings 1, 2, 3…
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PingIngest } from '../../../src/monitoring/pings/ingest.ts';
import { POSTGRES_PARALLEL_BATCHES, postgresPingStore } from '../../../src/monitoring/pings/postgres-store.ts';
import type { PingStore } from '../../../src/monitoring/pings/store.ts';
import type { PingEvent } from '../../../src/events/bus.ts';
import { createWorld } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { freshPostgresDatabase, postgresUnderTest, testPool } from '../../helpers/postgres.ts';

const pg_ = postgresUnderTest();

describe.skipIf(!pg_)(`ping ingest on PostgreSQL${pg_ ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  const w = useWorld();
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = testPool({ connectionString: w.databaseUrl, max: 4 });
    pools.push(p);
    return p;
  };
  const noObserve = () => {};
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  async function newChecks(count: number, body: Record<string, unknown> = {}): Promise<string[]> {
    const codes: string[] = [];
    for (let i = 0; i < count; i++) codes.push((await w.api('POST', '/api/v2/checks/', { body: { name: `g${i}`, timeout: 60, grace: 60, ...body } })).json.uuid);
    return codes;
  }

  it('reads checks (by UUID and by id, once each) exactly as Prisma reads them', async () => {
    const created = await w.api('POST', '/api/v2/checks/', {
      body: { name: 'full', tags: 'a b', desc: 'd', schedule: '5 4 * * *', tz: 'Europe/Riga', grace: 120, manual_resume: true, methods: 'POST', subject: 'ok', subject_fail: 'bad', filter_body: true },
    });
    const code = created.json.uuid as string;
    await w.ping(`/ping/${code}/start`, { method: 'POST' });
    const viaPrisma = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    const loaded = await postgresPingStore(pool(), noObserve).transaction((tx) => tx.load({ codes: [code, 'no-such-code'], ids: [viaPrisma.id, 999_999] }));
    expect(loaded.checks).toEqual([viaPrisma]);
    expect(loaded.pingLogLimit(viaPrisma.projectId)).toBe(100);
    expect(viaPrisma.lastStart).toBeInstanceOf(Date);
  });

  it('writes a batch in a handful of statements whatever its size: lock, write, commit', async () => {
    const codes = await newChecks(20);
    const seen: string[] = [];
    const stop = w.app.onStatement((sql) => seen.push(sql.trim().split(/\s+/)[0]!));
    await Promise.all(Array.from({ length: 400 }, (_, i) => w.app.deps.pings.submit({ code: codes[i % 20]! }, pingRequest())));
    stop();
    // BEGIN, the locking read, the write (checks, pings, flips), COMMIT: no statement per ping.
    expect(seen).toEqual(['BEGIN', 'SELECT', 'WITH', 'COMMIT']);
    const checks = await w.app.db.check.findMany({ where: { code: { in: codes } }, include: { pings: { orderBy: { n: 'asc' } } } });
    for (const c of checks) expect(c.pings.map((p) => p.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('gives events the stored ids, and queues a recovery notification with its flip', async () => {
    const [code] = await newChecks(1);
    const channel = await w.channel(w.alice, { kind: 'email', value: 'ops@example.org' });
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    const channelId = (await w.app.db.channel.findUniqueOrThrow({ where: { code: channel.code } })).id;
    await w.app.db.checkChannel.create({ data: { checkId: check.id, channelId } });
    const events: PingEvent[] = [];
    const onPing = (e: PingEvent) => events.push(e);
    w.app.deps.events.on('ping', onPing);
    // new → down (fail: notifies), down → up (notifies), in one batch.
    await Promise.all([w.app.deps.pings.submit({ code: code! }, { ...pingRequest(), signal: 'fail' as const }), w.app.deps.pings.submit({ checkId: check.id }, pingRequest())]);
    w.app.deps.events.off('ping', onPing);
    const stored = await w.app.db.ping.findMany({ where: { checkId: check.id }, orderBy: { n: 'asc' } });
    expect(events.map((e) => [e.ping.id, e.ping.n, e.ping.kind])).toEqual(stored.map((p) => [p.id, p.n, p.kind]));
    const flips = await w.app.db.flip.findMany({ where: { checkId: check.id }, orderBy: { id: 'asc' } });
    expect(flips.map((f) => `${f.oldStatus}>${f.newStatus}`)).toEqual(['new>down', 'down>up']);
    const notifications = await w.app.db.notification.findMany({ where: { checkId: check.id }, orderBy: { id: 'asc' } });
    expect(notifications.map((n) => [n.status, n.flipId, n.channelId])).toEqual([
      ['down', flips[0]!.id, channelId],
      ['up', flips[1]!.id, channelId],
    ]);
  });

  it('retries a batch PostgreSQL rolled back as a deadlock victim, and answers once it commits', async () => {
    const [code] = await newChecks(1);
    const store = postgresPingStore(pool(), noObserve);
    let refusals = 1;
    const flaky: PingStore = {
      parallelBatches: 1,
      transaction: (work) => (refusals-- > 0 ? Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' })) : store.transaction(work)),
    };
    await new PingIngest(w.app.deps, flaky).submit({ code: code! }, pingRequest());
    expect(refusals).toBe(-1);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: true } });
    expect(check).toMatchObject({ nPings: 1, status: 'up' });
    expect(check.pings).toHaveLength(1);
  });

  it('fails every ping of a batch whose transaction fails after writing, and stores none of them', async () => {
    const [code] = await newChecks(1);
    const store = postgresPingStore(pool(), noObserve);
    const failing: PingStore = {
      parallelBatches: 1,
      transaction: (work) =>
        store.transaction(async (tx) => {
          await work(tx);
          throw new Error('connection lost');
        }),
    };
    const ingest = new PingIngest(w.app.deps, failing);
    const results = await Promise.allSettled([ingest.submit({ code: code! }, pingRequest()), ingest.submit({ code: code! }, pingRequest())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: true } });
    expect(check).toMatchObject({ nPings: 0, status: 'new' });
    expect(check.pings).toHaveLength(0);
  });

  /** A store whose first transaction writes, then waits for `release` and fails: its locks held meanwhile. */
  function holdFirstBatch(store: PingStore) {
    let started = 0;
    const written = deferred();
    const release = deferred();
    const held: PingStore = {
      parallelBatches: store.parallelBatches,
      transaction: (work) => {
        const first = started++ === 0;
        return store.transaction(async (tx) => {
          const result = await work(tx);
          if (!first) return result;
          written.resolve();
          await release.promise;
          throw new Error('connection lost');
        });
      },
    };
    return { held, written, release, started: () => started };
  }

  it('has two batches in flight at once, and they lose nothing on shared checks: every check numbered 1..N, events included', async () => {
    expect(POSTGRES_PARALLEL_BATCHES).toBe(2);
    const codes = await newChecks(20);
    const store = postgresPingStore(pool(), noObserve);
    let active = 0;
    let most = 0;
    const counted: PingStore = {
      parallelBatches: store.parallelBatches,
      transaction: async (work) => {
        most = Math.max(most, ++active);
        try {
          return await store.transaction(work);
        } finally {
          active--;
        }
      },
    };
    const ingest = new PingIngest(w.app.deps, counted);
    const ids = new Set((await w.app.db.check.findMany({ where: { code: { in: codes } }, select: { id: true } })).map((c) => c.id));
    const events = new Map<number, number[]>();
    const onPing = (e: PingEvent) => {
      if (ids.has(e.checkId)) events.set(e.checkId, [...(events.get(e.checkId) ?? []), e.ping.n]);
    };
    w.app.deps.events.on('ping', onPing);
    // Waves a turn of the event loop apart: each wave's batch starts while the previous one is
    // still in flight, and every batch names all 20 checks, so the second waits on the first's
    // row locks and must read the rows as the first committed them.
    const results: Array<Promise<void>> = [];
    for (let wave = 0; wave < 12; wave++) {
      for (let i = 0; i < 150; i++) results.push(ingest.submit({ code: codes[(wave + i) % 20]! }, pingRequest()));
      await new Promise((r) => setImmediate(r));
    }
    const settled = await Promise.allSettled(results);
    await ingest.drain();
    w.app.deps.events.off('ping', onPing);
    expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(most).toBe(2);
    const checks = await w.app.db.check.findMany({ where: { id: { in: [...ids] } }, include: { pings: { select: { n: true }, orderBy: { n: 'asc' } } } });
    expect(checks.reduce((sum, c) => sum + c.nPings, 0)).toBe(1800);
    for (const c of checks) {
      const numbered = Array.from({ length: c.nPings }, (_, i) => i + 1);
      expect(c.pings.map((p) => p.n)).toEqual(numbered);
      expect([...(events.get(c.id) ?? [])].sort((a, b) => a - b)).toEqual(numbered);
    }
  });

  it('commits a second batch while the first is still open, fails only the first one\'s pings, and drains only after both', async () => {
    const codes = await newChecks(4);
    const { held, written, release } = holdFirstBatch(postgresPingStore(pool(), noObserve));
    const ingest = new PingIngest(w.app.deps, held);
    // Disjoint checks: the second batch must not wait on the first one's row locks.
    const first = Promise.allSettled(codes.slice(0, 2).map((code) => ingest.submit({ code }, pingRequest())));
    await written.promise;
    await Promise.all(codes.slice(2).map((code) => ingest.submit({ code }, pingRequest())));
    let drained = false;
    const draining = ingest.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(drained).toBe(false);
    release.resolve();
    await draining;
    expect((await first).map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(['connection lost', 'connection lost']);
    const checks = await w.app.db.check.findMany({ where: { code: { in: codes } }, include: { pings: true } });
    expect(Object.fromEntries(checks.map((c) => [c.code, [c.nPings, c.pings.length]]))).toEqual({
      [codes[0]!]: [0, 0],
      [codes[1]!]: [0, 0],
      [codes[2]!]: [1, 1],
      [codes[3]!]: [1, 1],
    });
  });

  it('keeps one batch in flight when the store allows one (as on SQLite): the next waits for the first to finish', async () => {
    const codes = await newChecks(2);
    const { held, written, release, started } = holdFirstBatch(postgresPingStore(pool(), noObserve, 1));
    const ingest = new PingIngest(w.app.deps, held);
    const first = ingest.submit({ code: codes[0]! }, pingRequest()).catch((err: Error) => err.message);
    await written.promise;
    let answered = false;
    const second = ingest.submit({ code: codes[1]! }, pingRequest()).then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 50));
    expect([started(), answered]).toEqual([1, false]);
    release.resolve();
    expect(await first).toBe('connection lost');
    expect(await second).toBe(true);
    expect(started()).toBe(2);
  });

  it('loses nothing when two instances write a 5,000-ping burst to the same checks at once', async () => {
    const codes = await newChecks(50);
    // Two writers on two pools: two instances sharing the database.
    const a = new PingIngest(w.app.deps, postgresPingStore(pool(), noObserve));
    const b = new PingIngest(w.app.deps, postgresPingStore(pool(), noObserve));
    const results = await Promise.allSettled(
      Array.from({ length: 5000 }, (_, i) => (i % 2 ? a : b).submit({ code: codes[Math.floor(i / 2) % 50]! }, pingRequest())),
    );
    const acknowledged = results.filter((r) => r.status === 'fulfilled').length;
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const checks = await w.app.db.check.findMany({ where: { code: { in: codes } }, select: { id: true, nPings: true } });
    const rows = await w.app.db.ping.groupBy({ by: ['checkId'], where: { checkId: { in: checks.map((c) => c.id) } }, _count: true, _max: { n: true } });
    expect(checks.reduce((sum, c) => sum + c.nPings, 0)).toBe(acknowledged);
    expect(rows.reduce((sum, r) => sum + r._count, 0)).toBe(acknowledged);
    // Numbered without gaps or repeats: n is unique per check and the highest equals the count.
    for (const c of checks) expect(rows.find((r) => r.checkId === c.id)).toMatchObject({ _count: c.nPings, _max: { n: c.nPings } });
  });

  it('creates one check when first pings to a new slug race (?create=1)', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => w.ping(`/ping/${w.alice.ping_key}/nightly?create=1`)));
    expect(responses.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const checks = await w.app.db.check.findMany({ where: { projectId: w.alice.id, slug: 'nightly' } });
    expect(checks.map((c) => c.nPings)).toEqual([10]);
  });

  it('commits and answers every queued ping before the app stops', async () => {
    const database = await freshPostgresDatabase();
    const client = new pg.Client({ connectionString: database.url });
    let connected = false;
    try {
      const other = await createWorld({ DATABASE_URL: database.url });
      const code = (await other.api('POST', '/api/v2/checks/', { body: { name: 'late' } })).json.uuid as string;
      const results = Promise.all(Array.from({ length: 50 }, () => other.app.deps.pings.submit({ code }, pingRequest())));
      await other.stop();
      await results;
      await client.connect();
      connected = true;
      expect((await client.query('SELECT COUNT(*)::int AS n FROM "Ping"')).rows).toEqual([{ n: 50 }]);
    } finally {
      if (connected) await client.end();
      await database.drop();
    }
  });
});

function pingRequest() {
  return { signal: 'success' as const, method: 'GET', scheme: 'http', remoteAddr: '127.0.0.1', ua: 'test', body: Buffer.alloc(0) };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
