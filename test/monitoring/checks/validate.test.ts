import { describe, expect, it } from 'vitest';
import { parseCheckSpec } from '../../../src/monitoring/checks/validate.ts';
import { DomainError } from '../../../src/shared/errors.ts';

const error = (body: unknown) => {
  try {
    parseCheckSpec(body);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('VALIDATION');
    return (e as Error).message;
  }
  return null;
};
const hc = (template: string) => `json validation error: ${template}`;

describe('parseCheckSpec: accepted bodies', () => {
  it('drops unknown keys, api_key included', () => {
    expect(parseCheckSpec({ name: 'x', api_key: 'k', extra: 1, kind: 'cron' })).toEqual({ name: 'x' });
    expect(parseCheckSpec({})).toEqual({});
  });

  it('accepts every field with a valid value', () => {
    const body = {
      channels: '*', desc: 'd', failure_kw: 'f', filter_subject: true, filter_body: false,
      filter_http_body: true, filter_default_fail: false, grace: 60, manual_resume: true, methods: 'POST',
      name: 'n', schedule: '*/5 * * * *', slug: 'a-b_9', start_kw: 's', subject: 'su', subject_fail: 'sf',
      success_kw: 'ok', tags: 'a b', timeout: 31536000, tz: 'Europe/Riga', unique: ['name', 'slug', 'tags', 'timeout', 'grace'],
    };
    expect(parseCheckSpec(body)).toEqual(body);
  });

  it('returns the canonical name for a legacy time zone', () => {
    expect(parseCheckSpec({ tz: 'US/Eastern' })).toEqual({ tz: 'America/New_York' });
    expect(parseCheckSpec({ tz: 'Europe/Kiev' })).toEqual({ tz: 'Europe/Kyiv' });
    expect(parseCheckSpec({ tz: 'UTC' })).toEqual({ tz: 'UTC' });
  });

  it('accepts methods "" and an empty slug, desc and tags without a limit but tags up to 500', () => {
    expect(parseCheckSpec({ methods: '', slug: '', desc: 'd'.repeat(10_000), tags: 't'.repeat(500) })).toMatchObject({ methods: '', slug: '' });
  });

  it('counts lengths in code points as Python does, not UTF-16 units', () => {
    expect(parseCheckSpec({ name: '😀'.repeat(100) }).name).toHaveLength(200);
    expect(error({ name: '😀'.repeat(101) })).toBe(hc('name is too long'));
  });

  it('accepts integral numbers for timeout and grace at both bounds', () => {
    expect(parseCheckSpec({ timeout: 60, grace: 31536000 })).toEqual({ timeout: 60, grace: 31536000 });
  });

  it('accepts an empty unique list and repeated items', () => {
    expect(parseCheckSpec({ unique: [] })).toEqual({ unique: [] });
    expect(parseCheckSpec({ unique: ['name', 'name'] })).toEqual({ unique: ['name', 'name'] });
  });
});

describe('parseCheckSpec: non-object bodies', () => {
  it.each([[[]], ['x'], [null], [42], [true], [undefined], [new Date(0)]])('%j → value is not an object', (body) => {
    expect(error(body)).toBe(hc('value is not an object'));
  });

  it('accepts an object without a prototype', () => {
    expect(parseCheckSpec(Object.assign(Object.create(null), { name: 'x' }))).toEqual({ name: 'x' });
  });
});

describe('parseCheckSpec: error templates', () => {
  it.each<[Record<string, unknown>, string]>([
    // strings
    [{ channels: [] }, 'channels is not a string'],
    [{ desc: 1 }, 'desc is not a string'],
    [{ name: null }, 'name is not a string'],
    [{ name: 'x'.repeat(101) }, 'name is too long'],
    [{ failure_kw: 'k'.repeat(201) }, 'failure_kw is too long'],
    [{ start_kw: 'k'.repeat(201) }, 'start_kw is too long'],
    [{ subject: 'k'.repeat(201) }, 'subject is too long'],
    [{ subject_fail: 'k'.repeat(201) }, 'subject_fail is too long'],
    [{ success_kw: 'k'.repeat(201) }, 'success_kw is too long'],
    [{ tags: 't'.repeat(501) }, 'tags is too long'],
    [{ tags: ['a'] }, 'tags is not a string'],
    // slug
    [{ slug: 'Has Caps' }, 'slug does not match pattern'],
    [{ slug: 'a.b' }, 'slug does not match pattern'],
    [{ slug: 'ok\n' }, 'slug does not match pattern'],
    [{ slug: 's'.repeat(101) }, 'slug is too long'],
    [{ slug: 'S'.repeat(101) }, 'slug is too long'],
    // booleans
    [{ filter_subject: 1 }, 'filter_subject is not a boolean'],
    [{ filter_body: 'true' }, 'filter_body is not a boolean'],
    [{ filter_http_body: null }, 'filter_http_body is not a boolean'],
    [{ filter_default_fail: 0 }, 'filter_default_fail is not a boolean'],
    [{ manual_resume: 1 }, 'manual_resume is not a boolean'],
    [{ manual_resume: null }, 'manual_resume is not a boolean'],
    // integers
    [{ timeout: 59 }, 'timeout is too small'],
    [{ timeout: -1e20 }, 'timeout is too small'],
    [{ timeout: 31536001 }, 'timeout is too large'],
    [{ timeout: 1e20 }, 'timeout is too large'],
    [{ timeout: Number.MAX_VALUE }, 'timeout is too large'],
    [{ timeout: 3600.5 }, 'timeout is not a number'],
    [{ timeout: 59.5 }, 'timeout is not a number'],
    [{ timeout: '3600' }, 'timeout is not a number'],
    [{ timeout: null }, 'timeout is not a number'],
    [{ timeout: true }, 'timeout is too small'],
    [{ timeout: false }, 'timeout is too small'],
    [{ grace: 59 }, 'grace is too small'],
    [{ grace: 31536001 }, 'grace is too large'],
    [{ grace: null }, 'grace is not a number'],
    [{ grace: true }, 'grace is too small'],
    // methods
    [{ methods: null }, 'methods has unexpected value'],
    [{ methods: 'get' }, 'methods has unexpected value'],
    [{ methods: 'post' }, 'methods has unexpected value'],
    [{ methods: 1 }, 'methods has unexpected value'],
    // schedule
    [{ schedule: '@daily' }, 'schedule is not a valid cron or OnCalendar expression'],
    [{ schedule: '* * * * * *' }, 'schedule is not a valid cron or OnCalendar expression'],
    [{ schedule: '' }, 'schedule is not a valid cron or OnCalendar expression'],
    [{ schedule: '* '.repeat(51) }, 'schedule is too long'],
    [{ schedule: null }, 'schedule is not a string'],
    // tz
    [{ tz: 'utc' }, 'tz is not a valid timezone'],
    [{ tz: 'Mars/Olympus' }, 'tz is not a valid timezone'],
    [{ tz: '' }, 'tz is not a valid timezone'],
    [{ tz: null }, 'tz is not a string'],
    // unique
    [{ unique: 'name' }, 'unique is not an array'],
    [{ unique: null }, 'unique is not an array'],
    [{ unique: { 0: 'name' } }, 'unique is not an array'],
    [{ unique: ['name', 'color'] }, "an item in 'unique' has unexpected value"],
    [{ unique: [1] }, "an item in 'unique' has unexpected value"],
    [{ unique: [null] }, "an item in 'unique' has unexpected value"],
    [{ unique: ['Name'] }, "an item in 'unique' has unexpected value"],
  ])('%j → %s', (body, template) => {
    expect(error(body)).toBe(hc(template));
  });
});

describe('parseCheckSpec: precedence', () => {
  it("reports the first error in Healthchecks' field order, not JSON key order", () => {
    expect(error({ timeout: 1, name: 5 })).toBe(hc('name is not a string'));
    expect(error({ unique: 5, channels: 5 })).toBe(hc('channels is not a string'));
    expect(error({ tz: 'x', grace: 1 })).toBe(hc('grace is too small'));
    expect(error({ tz: 'x', timeout: 1 })).toBe(hc('timeout is too small'));
    expect(error({ slug: 'A', schedule: 'bad' })).toBe(hc('schedule is not a valid cron or OnCalendar expression'));
  });

  it('reports only one error per field: type before length before pattern', () => {
    expect(error({ slug: 5 })).toBe(hc('slug is not a string'));
    expect(error({ slug: 'A'.repeat(101) })).toBe(hc('slug is too long'));
    expect(error({ schedule: 'bad '.repeat(30) })).toBe(hc('schedule is too long'));
  });
});
