// A batch of new records numbers their handles in one read each, not one read per candidate:
// 300 untitled schedules in one /save were 45,000 statements (13.8 s on PostgreSQL).
import { expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();

it('gives 300 new untitled records of one /save handles course_schedule, course_schedule-2 … course_schedule-300 in a bounded number of statements', async () => {
  const staff = (await w.campusToken('Administrator')).token;
  let statements = 0;
  const stop = w.app.onStatement(() => void statements++);
  const res = await w.campus('POST', '/schedules/save', { token: staff, fields: { data: Array.from({ length: 300 }, () => ({})) }, json: true });
  stop();
  expect(res.status).toBe(200);
  expect(res.json.success).toBe(true);
  const handles = (res.json.data as Array<{ Handle: string }>).map((r) => r.Handle);
  expect(handles).toEqual(Array.from({ length: 300 }, (_, i) => (i === 0 ? 'course_schedule' : `course_schedule-${i + 1}`)));
  // Each record: a handle read, its insert and what a save does around them; never a read per earlier record.
  expect(statements).toBeLessThan(300 * 20);
  // A handle given by hand that looks numbered is respected; the next generated one skips it.
  const next = await w.campus('POST', '/schedules/save', { token: staff, fields: { data: [{ Handle: 'course_schedule-302' }, {}, {}] }, json: true });
  expect((next.json.data as Array<{ Handle: string }>).map((r) => r.Handle)).toEqual(['course_schedule-302', 'course_schedule-301', 'course_schedule-303']);
});
