// OnCalendar schedules through both transports and the store (on SQLite, and on PostgreSQL in
// the TEST_DB=postgres pass): the REST API and GraphQL accept them as Healthchecks does (the
// form of the schedule decides the kind), the stored check is an OnCalendar check, its next
// ping and alert time come from the schedule in its zone, and the monitor takes it down then.
import { beforeAll, describe, expect, it } from 'vitest';
import { runMonitorPass } from '../../../src/monitoring/monitor/pass.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { inProcess, type Query } from '../../graphql/in-process.ts';

const w = useWorld();
let q: Query;
beforeAll(() => {
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
});

const stored = (code: string) => w.app.db.check.findUniqueOrThrow({ where: { code } });

describe('OnCalendar schedules over REST', () => {
  it('creates an OnCalendar check, dates its next ping by the schedule in its zone, and goes down after grace', async () => {
    w.clock.set('2026-01-05T10:00:00Z'); // a Monday; 12:00 in Riga
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'timer', schedule: 'Mon..Fri 09:00', tz: 'Europe/Riga', grace: 600, timeout: 120 } });
    expect(created.status).toBe(201);
    // Healthchecks shows schedule and tz, not timeout, and no kind field.
    expect(created.json).toMatchObject({ schedule: 'Mon..Fri 09:00', tz: 'Europe/Riga', grace: 600, status: 'new', next_ping: null });
    expect(created.json).not.toHaveProperty('timeout');
    expect(created.json).not.toHaveProperty('kind');
    const code = created.json.uuid as string;
    expect((await stored(code)).kind).toBe('oncalendar');

    expect((await w.ping(`/ping/${code}`)).status).toBe(200);
    // Tuesday 09:00 in Riga (UTC+2 in winter).
    const check = await w.api('GET', `/api/v3/checks/${code}`);
    expect(check.json).toMatchObject({ status: 'up', next_ping: '2026-01-06T07:00:00+00:00' });
    expect((await stored(code)).alertAfter).toEqual(new Date('2026-01-06T07:10:00Z'));

    w.clock.set('2026-01-06T07:05:00Z');
    expect((await w.api('GET', `/api/v3/checks/${code}`)).json.status).toBe('grace');
    expect((await runMonitorPass(w.app.deps, new Date('2026-01-06T07:09:59.999Z'))).wentDown).toBe(0);
    expect((await runMonitorPass(w.app.deps, new Date('2026-01-06T07:10:00Z'))).wentDown).toBe(1);
    expect((await stored(code)).status).toBe('down');
  });

  it('switches kind with the form of the schedule, and refuses what the library refuses', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    const code = (await w.api('POST', '/api/v3/checks/', { body: { name: 'switch', schedule: '5 * * * *' } })).json.uuid as string;
    expect((await stored(code)).kind).toBe('cron');
    // Healthchecks' test_it_updates_cron_to_oncalendar.
    const updated = await w.api('POST', `/api/v3/checks/${code}`, { body: { schedule: '12:34' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ schedule: '12:34', tz: 'UTC' });
    expect(await stored(code)).toMatchObject({ kind: 'oncalendar', schedule: '12:34' });
    // Several expressions, one per line, zones named at the end of a line.
    const multi = await w.api('POST', `/api/v3/checks/${code}`, { body: { schedule: 'Sat,Sun 10:00\n*-*~1 12:00 Europe/Riga' } });
    expect(multi.status).toBe(200);
    expect((await stored(code)).schedule).toBe('Sat,Sun 10:00\n*-*~1 12:00 Europe/Riga');
    expect((await w.api('POST', `/api/v3/checks/${code}`, { body: { schedule: '0 9 * * 1-5' } })).status).toBe(200);
    expect((await stored(code)).kind).toBe('cron');

    // Healthchecks' test_it_validates_schedule and test_it_validates_oncalendar_expression.
    // Validity is judged from 2000-01-01 (so 2018-01-01 is fine and 1999-01-01 is not).
    for (const schedule of ['12:34\nsurprise', 'Surprise 12:34', '12:34 Europe/surprise', '*:*/2', '1999-01-01', 'daily\n']) {
      const r = await w.api('POST', `/api/v3/checks/${code}`, { body: { schedule } });
      if (schedule === 'daily\n') {
        expect(r.status, schedule).toBe(200); // stripped: one line
        continue;
      }
      expect(r.status, schedule).toBe(400);
      expect(r.json, schedule).toEqual({ error: 'json validation error: schedule is not a valid cron or OnCalendar expression' });
    }
    expect((await stored(code)).schedule).toBe('daily\n');
  });

  it('a schedule that has ended expects no ping: up for good (Healthchecks\' test_status_handles_stopiteration)', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'once', schedule: '2018-01-01', grace: 60 } });
    expect(created.status).toBe(201);
    await w.ping(`/ping/${created.json.uuid}`);
    w.clock.set('2027-01-01T00:00:00Z');
    expect((await w.api('GET', `/api/v3/checks/${created.json.uuid}`)).json).toMatchObject({ status: 'up', next_ping: null });
    expect((await stored(created.json.uuid)).alertAfter).toBeNull();
  });
});

describe('OnCalendar schedules over GraphQL', () => {
  it('creates an ONCALENDAR check whose nextPing follows the schedule, and previews the schedule without a description', async () => {
    w.clock.set('2026-03-06T12:00:00Z'); // a Friday
    const created = await q(
      `mutation($i: CheckInput!) { createCheck(input: $i) { check { uuid kind schedule tz timeout nextPing } } }`,
      { i: { name: 'weekend', schedule: 'Sat,Sun 10:00\n*-*~1 12:00', tz: 'America/New_York', grace: 300 } },
    );
    expect(created.errors).toBeUndefined();
    const check = created.data.createCheck.check;
    expect(check).toMatchObject({ kind: 'ONCALENDAR', schedule: 'Sat,Sun 10:00\n*-*~1 12:00', tz: 'America/New_York', timeout: null, nextPing: null });
    expect((await stored(check.uuid)).kind).toBe('oncalendar');

    await w.ping(`/ping/${check.uuid}`);
    const read = await q(`query($id: ID!) { check(id: $id) { status nextPing } }`, { id: check.uuid });
    // Saturday 10:00 EST (the zone's clocks go forward on Sunday the 8th).
    expect(read.data.check).toEqual({ status: 'UP', nextPing: '2026-03-07T15:00:00.000Z' });

    const preview = await q(`query { schedulePreview(schedule: "Sat,Sun 10:00\\n*-*~1 12:00", tz: "America/New_York", count: 4) { ok error description nextTimes } }`);
    expect(preview.data.schedulePreview).toEqual({
      ok: true,
      error: null,
      description: null, // Healthchecks' OnCalendar preview lists times only
      nextTimes: ['2026-03-07T15:00:00.000Z', '2026-03-08T14:00:00.000Z', '2026-03-14T14:00:00.000Z', '2026-03-15T14:00:00.000Z'],
    });
    const bad = await q(`query { schedulePreview(schedule: "12:34 Europe/surprise") { ok error description nextTimes } }`);
    expect(bad.data.schedulePreview).toEqual({ ok: false, error: 'json validation error: schedule is not a valid cron or OnCalendar expression', description: null, nextTimes: [] });
    const refused = await q(`mutation { createCheck(input: { name: "bad", schedule: "12:34 Europe/surprise" }) { check { uuid } } }`);
    expect(refused.errors?.[0]).toMatchObject({ message: 'json validation error: schedule is not a valid cron or OnCalendar expression', extensions: { code: 'BAD_USER_INPUT' } });
  });
});
