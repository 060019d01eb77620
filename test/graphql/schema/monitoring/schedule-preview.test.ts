// Query.schedulePreview: the server's verdict on a cron schedule (the check spec's own
// validation, so the messages are createCheck's), the schedule in words (cronsim's explain,
// ported with its test table) and its next run times from the injected clock, DST included.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../../helpers/fixtures.ts';
import { inProcess, type Query } from '../../in-process.ts';

const w = useWorld();
/** No key and no session: the preview is pure computation. */
let anonymous: Query;
let q: Query;
beforeAll(() => {
  anonymous = inProcess(w.app.services, w.app.log, null);
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
});

const PREVIEW = `query($s: String!, $tz: String, $n: Int) { schedulePreview(schedule: $s, tz: $tz, count: $n) { ok error description nextTimes } }`;
const PREVIEW_DEFAULTS = `query($s: String!) { schedulePreview(schedule: $s) { ok error description nextTimes } }`;

async function preview(s: string, tz?: string | null, n?: number) {
  const r = await anonymous(PREVIEW, { s, tz, n });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data.schedulePreview as { ok: boolean; error: string | null; description: string | null; nextTimes: string[] };
}

/** The message createCheck gives for this schedule and zone (and stores nothing). */
async function createCheckError(schedule: string, tz: string) {
  const before = await w.app.db.check.count();
  const r = await q(`mutation($i: CheckInput!) { createCheck(input: $i) { check { uuid } } }`, { i: { name: 'preview-twin', schedule, tz } });
  expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(await w.app.db.check.count()).toBe(before);
  return r.errors![0]!.message;
}

describe('schedulePreview', () => {
  it('answers without a key or session: ok, the schedule in words, and the next times in the zone from the clock', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    expect(await preview('30 2 * * *', 'Europe/Riga', 3)).toEqual({
      ok: true,
      error: null,
      description: 'At 02:30 every day',
      // 02:30 in Riga is 00:30 UTC in winter; the first is tomorrow's, strictly after now.
      nextTimes: ['2026-01-06T00:30:00.000Z', '2026-01-07T00:30:00.000Z', '2026-01-08T00:30:00.000Z'],
    });
  });

  it('takes UTC and five times by default, and moves with the injected clock', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    const r = await anonymous(PREVIEW_DEFAULTS, { s: '*/15 9-17 * * 1-5' });
    expect(r.data.schedulePreview).toEqual({
      ok: true,
      error: null,
      description: 'Every 15th minute from 09:00 through 17:59 on Monday through Friday',
      nextTimes: ['2026-01-05T10:15:00.000Z', '2026-01-05T10:30:00.000Z', '2026-01-05T10:45:00.000Z', '2026-01-05T11:00:00.000Z', '2026-01-05T11:15:00.000Z'],
    });
    // Friday 17:50: the rest of Friday, then Monday morning.
    w.clock.set('2026-01-09T17:50:00Z');
    expect((await preview('*/15 9-17 * * 1-5', 'UTC', 3)).nextTimes).toEqual(['2026-01-12T09:00:00.000Z', '2026-01-12T09:15:00.000Z', '2026-01-12T09:30:00.000Z']);
    // An explicit null zone is the default.
    expect((await preview('0 0 L * *', null, 2)).nextTimes).toEqual(['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z']);
  });

  it('walks DST as cronsim does: 02:30 on the night New York skips it is 03:00 local', async () => {
    w.clock.set('2026-03-07T12:00:00Z');
    expect((await preview('30 2 * * *', 'America/New_York', 3)).nextTimes).toEqual([
      '2026-03-08T07:00:00.000Z', // 03:00 EDT: the first minute that exists
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('accepts a legacy zone name as createCheck does, and uses the zone it stands for', async () => {
    w.clock.set('2026-01-05T10:00:00Z');
    const legacy = await preview('0 9 * * *', 'US/Eastern', 2);
    expect(legacy).toEqual(await preview('0 9 * * *', 'America/New_York', 2));
    expect(legacy.nextTimes).toEqual(['2026-01-05T14:00:00.000Z', '2026-01-06T14:00:00.000Z']);
  });

  it('refuses what createCheck refuses, with createCheck’s message: no description, no times', async () => {
    const cases: Array<[string, string]> = [
      ['61 * * * *', 'UTC'], // minute out of range
      ['* * * *', 'UTC'], // four fields
      ['0 0 30 2 *', 'UTC'], // never fires
      ['', 'UTC'],
      ['x'.repeat(101), 'UTC'], // too long, before any parsing
      ['0 9 * * *', 'Mars/Olympus_Mons'], // bad zone
      ['0 9 * * *', 'europe/riga'], // zone names are case-sensitive
      ['61 * * * *', 'Mars/Olympus_Mons'], // both: the schedule's message, as createCheck reports the first
    ];
    for (const [schedule, tz] of cases) {
      const p = await preview(schedule, tz);
      expect(p, `${schedule} ${tz}`).toEqual({ ok: false, error: await createCheckError(schedule, tz), description: null, nextTimes: [] });
    }
    expect((await preview('61 * * * *')).error).toBe('json validation error: schedule is not a valid cron or OnCalendar expression');
    expect((await preview('0 9 * * *', 'Mars/Olympus_Mons')).error).toBe('json validation error: tz is not a valid timezone');
    expect((await preview('x'.repeat(101))).error).toBe('json validation error: schedule is too long');
  });

  it('gives updateCheck’s message too (the same validation)', async () => {
    const uuid = (await q(`mutation { createCheck(input: { name: "twin", schedule: "0 9 * * *" }) { check { uuid } } }`)).data.createCheck.check.uuid;
    const r = await q(`mutation($id: ID!) { updateCheck(id: $id, input: { tz: "Nowhere/Land" }) { tz } }`, { id: uuid });
    expect((await preview('0 9 * * *', 'Nowhere/Land')).error).toBe(r.errors![0]!.message);
  });

  it('takes 1 to 10 times; outside that, a BAD_USER_INPUT error that says so', async () => {
    expect((await preview('* * * * *', 'UTC', 1)).nextTimes).toHaveLength(1);
    expect((await preview('* * * * *', 'UTC', 10)).nextTimes).toHaveLength(10);
    for (const n of [0, 11, -1]) {
      const r = await anonymous(PREVIEW, { s: '* * * * *', n });
      expect(r.data).toBeNull();
      expect(r.errors).toEqual([expect.objectContaining({ message: 'count must be between 1 and 10', extensions: { code: 'BAD_USER_INPUT' } })]);
    }
  });
});
