// Check.downtimes: seconds down and down periods per calendar month (UTC), newest first,
// computed from the flips as Healthchecks' Check.downtimes() does (the arithmetic is tested in
// test/monitoring/flips/downtimes.test.ts): the field with real pings and monitor passes, for
// read-only keys too, in a constant number of statements.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../../helpers/fixtures.ts';
import { inProcess, type Query } from '../../in-process.ts';
import { runMonitorPass } from '../../../../src/monitoring/monitor/pass.ts';
import { createProject, type CreatedProject } from '../../../../src/monitoring/projects/service.ts';

const DAY = 86_400;


describe('Check.downtimes over GraphQL', () => {
  const w = useWorld();
  let q: Query;
  beforeAll(() => {
    q = inProcess(w.app.services, w.app.log, w.alice.api_key);
  });

  const FIELDS = 'month downtime outages';
  const T = (iso: string) => new Date(iso);

  /** A check of `project` with a 60 s period and 60 s grace, pinged once at `start` (up). */
  async function pingedCheck(project: CreatedProject, start: Date, name = 'job') {
    w.clock.set(start);
    const created = await w.api('POST', '/api/v3/checks/', { key: project.api_key, body: { name, timeout: 60, grace: 60 } });
    expect(await w.ping(`/ping/${created.json.uuid}`)).toMatchObject({ status: 200 });
    return created.json.uuid as string;
  }

  it('adds up real outages per month from the flips the monitor records, for read-only keys too', async () => {
    const project = await createProject(w.app.db, { name: 'Downtimes' });
    const uuid = await pingedCheck(project, T('2026-01-05T10:00:00Z'));
    // Missed: the monitor dates the flip at the going-down time, 10:02.
    await runMonitorPass(w.app.deps, T('2026-01-05T10:10:00Z'));
    w.clock.set('2026-01-05T11:00:00Z');
    await w.ping(`/ping/${uuid}`);
    // Missed again at 11:02, and still down when asked in February.
    await runMonitorPass(w.app.deps, T('2026-01-05T11:30:00Z'));
    w.clock.set('2026-02-03T00:00:00Z');

    const expected = [
      { month: '2026-02-01T00:00:00.000Z', downtime: 2 * DAY, outages: 1 },
      // 10:02–11:00, then 11:02 to the end of January.
      { month: '2026-01-01T00:00:00.000Z', downtime: 58 * 60 + (26 * DAY + 12 * 3600 + 58 * 60), outages: 2 },
      { month: '2025-12-01T00:00:00.000Z', downtime: 0, outages: 0 },
    ];
    const rw = await q(`query($id: ID!) { check(id: $id) { downtimes { ${FIELDS} } } }`, { id: uuid }, project.api_key);
    expect(rw.errors).toBeUndefined();
    expect(rw.data.check.downtimes).toEqual(expected);
    // A summary like flips: the read-only key reads it (its checks by list, it sees no UUIDs).
    const ro = await q(`{ project { checks { nodes { uuid downtimes(months: 2) { ${FIELDS} } } } } }`, {}, project.api_key_readonly);
    expect(ro.errors).toBeUndefined();
    expect(ro.data.project.checks.nodes).toEqual([{ uuid: null, downtimes: expected.slice(0, 2) }]);
  });

  it('refuses months outside 1 to 12 at the field, with BAD_USER_INPUT', async () => {
    const uuid = await pingedCheck(w.alice, T('2026-01-05T10:00:00Z'));
    for (const months of [0, 13]) {
      const r = await q(`query($id: ID!, $m: Int) { check(id: $id) { name downtimes(months: $m) { month } } }`, { id: uuid, m: months });
      expect(r.errors).toEqual([expect.objectContaining({ message: 'months must be between 1 and 12', path: ['check', 'downtimes'], extensions: { code: 'BAD_USER_INPUT' } })]);
    }
    const twelve = await q(`query($id: ID!) { check(id: $id) { downtimes(months: 12) { month } } }`, { id: uuid });
    expect(twelve.data.check.downtimes).toHaveLength(12);
    expect(twelve.data.check.downtimes.at(-1).month).toBe('2025-02-01T00:00:00.000Z');
  });

  it('reads a page of checks’ flips in the same statements for 2 checks as for 6', async () => {
    const run = async (count: number) => {
      const project = await createProject(w.app.db, { name: `batch ${count}` });
      for (let i = 0; i < count; i++) await pingedCheck(project, T('2026-01-05T10:00:00Z'), `c${i}`);
      await runMonitorPass(w.app.deps, T('2026-01-05T10:10:00Z'));
      w.clock.set('2026-01-20T00:00:00Z');
      const seen: string[] = [];
      const stop = w.app.onStatement((sql) => seen.push(sql));
      const r = await q(`{ project { checks { nodes { name downtimes { downtime outages } } } } }`, {}, project.api_key);
      stop();
      expect(r.errors).toBeUndefined();
      // Down from 10:02 on 5 January to now.
      expect(r.data.project.checks.nodes.map((n: { downtimes: unknown[] }) => n.downtimes[0])).toEqual(
        Array(count).fill({ downtime: 14 * DAY + 13 * 3600 + 58 * 60, outages: 1 }),
      );
      return seen.length;
    };
    const small = await run(2);
    expect(await run(6)).toBe(small);
  });
});
