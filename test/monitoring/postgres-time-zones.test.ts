// Dates on PostgreSQL whatever the time zones (the TEST_DB=postgres pass). Columns are
// `timestamp without time zone` holding UTC; pg would write a Date as local time with an offset
// (which PostgreSQL drops for this type) and read one back as local time. Here the process runs
// in New York and the stores' sessions in Auckland: every date must still come back exact.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PingIngest } from '../../src/monitoring/pings/ingest.ts';
import { postgresPingStore } from '../../src/monitoring/pings/postgres-store.ts';
import { postgresMonitorStore } from '../../src/monitoring/monitor/postgres-store.ts';
import { postgresNotificationStore } from '../../src/monitoring/notifications/postgres-store.ts';
import { runMonitorPass } from '../../src/monitoring/monitor/pass.ts';
import { latestPings } from '../../src/monitoring/pings/service.ts';
import { createWorld, T0, type World } from '../helpers/world.ts';
import { postgresUnderTest, testPool } from '../helpers/postgres.ts';

const url = postgresUnderTest();
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe.skipIf(!url)(`dates on PostgreSQL in other time zones${url ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  let w: World;
  let pool: pg.Pool;
  const zone = process.env.TZ;
  beforeAll(async () => {
    process.env.TZ = 'America/New_York';
    w = await createWorld();
    pool = testPool({ connectionString: w.databaseUrl, max: 2, options: '-c TimeZone=Pacific/Auckland' });
  });
  afterAll(async () => {
    await pool.end();
    await w.stop();
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('writes and reads pings, flips and notifications at their exact UTC instants', async () => {
    // The process really is in New York (UTC-5 in January).
    expect(T0.getTimezoneOffset()).toBe(300);
    const channel = await w.channel(w.alice, { kind: 'email' });
    const code = (await w.api('POST', '/api/v3/checks/', { body: { name: 'tz', timeout: 60, grace: 60, channels: channel.code } })).json.uuid as string;
    const observe = () => {};
    w.clock.set(T0);
    await new PingIngest(w.app.deps, postgresPingStore(pool, observe)).submit({ code }, { signal: 'success', method: 'GET', scheme: 'http', remoteAddr: '127.0.0.1', ua: 't', body: Buffer.alloc(0) });

    const check = await w.app.db.check.findUniqueOrThrow({ where: { code }, include: { pings: true } });
    expect(check).toMatchObject({ lastPing: T0, alertAfter: at(120) });
    expect(check.pings[0]!.createdAt).toEqual(T0);
    // Stored as the UTC wall time, not New York's or Auckland's.
    const stored = await pool.query(`SELECT to_char("lastPing", 'YYYY-MM-DD HH24:MI:SS.MS') AS t FROM "Check" WHERE "id" = $1`, [check.id]);
    expect(stored.rows).toEqual([{ t: '2026-01-05 10:00:00.000' }]);
    // The store reads them back as Prisma does.
    const loaded = await postgresPingStore(pool, observe).transaction((tx) => tx.load({ codes: [code], ids: [] }));
    expect(loaded.checks[0]).toMatchObject({ lastPing: T0, alertAfter: at(120), createdAt: check.createdAt });

    // The monitor takes it down exactly at 10:02 UTC, not five or thirteen hours off.
    const deps = { ...w.app.deps, storage: { ...w.app.deps.storage, monitor: postgresMonitorStore(pool, observe) } };
    expect((await runMonitorPass(deps, at(119.999))).wentDown).toBe(0);
    expect((await runMonitorPass(deps, at(300))).wentDown).toBe(1);
    const flip = await w.app.db.flip.findFirstOrThrow({ where: { checkId: check.id, newStatus: 'down' } });
    expect(flip.createdAt).toEqual(at(120));

    const notifications = postgresNotificationStore(pool, observe);
    expect(await notifications.claimDue(at(299.999), 10, at(400))).toEqual([]);
    const [claimed] = await notifications.claimDue(at(300), 10, at(400));
    expect(claimed).toMatchObject({ checkId: check.id, flipId: flip.id, eventAt: at(120), createdAt: at(300) });
    expect(await notifications.nextDueAt()).toEqual(at(400));

    // The listing's own SQL (durations included) in the process's zone.
    const listed = await latestPings(w.app.deps, { projectId: w.alice.id, readOnly: false, role: 'regular', actor: { personId: null, label: 'test' } }, [check.id], { first: 10 });
    expect(listed.get(check.id)!.map((p) => p.createdAt)).toEqual([T0]);
  });
});
