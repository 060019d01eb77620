import { describe, expect, it } from 'vitest';
import { parseCheckSpec } from '../../../src/monitoring/checks/validate.ts';
import { slugify } from '../../../src/monitoring/checks/slugify.ts';
import { canonicalTimezone } from '../../../src/monitoring/checks/timezones.ts';

const error = (body: unknown) => {
  try {
    parseCheckSpec(body);
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

describe('parseCheckSpec', () => {
  it('returns only known fields, with tz canonicalised', () => {
    expect(parseCheckSpec({ name: 'x', api_key: 'k', extra: 1, tz: 'US/Eastern', unique: ['name'] })).toEqual({ name: 'x', tz: 'America/New_York', unique: ['name'] });
  });

  it.each([
    [[], 'value is not an object'],
    ['x', 'value is not an object'],
    [null, 'value is not an object'],
    [{ timeout: 59 }, 'timeout is too small'],
    [{ timeout: 31536001 }, 'timeout is too large'],
    [{ timeout: 1e20 }, 'timeout is too large'],
    [{ timeout: 3600.5 }, 'timeout is not a number'],
    [{ timeout: '3600' }, 'timeout is not a number'],
    [{ timeout: true }, 'timeout is too small'],
    [{ timeout: null }, 'timeout is not a number'],
    [{ grace: 31536001 }, 'grace is too large'],
    [{ name: null }, 'name is not a string'],
    [{ name: 'x'.repeat(101) }, 'name is too long'],
    [{ tags: 't'.repeat(501) }, 'tags is too long'],
    [{ desc: 1 }, 'desc is not a string'],
    [{ channels: [] }, 'channels is not a string'],
    [{ methods: null }, 'methods has unexpected value'],
    [{ methods: 'get' }, 'methods has unexpected value'],
    [{ manual_resume: 1 }, 'manual_resume is not a boolean'],
    [{ manual_resume: null }, 'manual_resume is not a boolean'],
    [{ unique: 'name' }, 'unique is not an array'],
    [{ unique: null }, 'unique is not an array'],
    [{ unique: ['name', 'color'] }, "an item in 'unique' has unexpected value"],
    [{ unique: [1] }, "an item in 'unique' has unexpected value"],
    [{ schedule: '@daily' }, 'schedule is not a valid cron or OnCalendar expression'],
    [{ schedule: '* '.repeat(51) }, 'schedule is too long'],
    [{ tz: 'utc' }, 'tz is not a valid timezone'],
    [{ slug: 'Has Caps' }, 'slug does not match pattern'],
    [{ slug: 's'.repeat(101) }, 'slug is too long'],
    [{ failure_kw: 'k'.repeat(201) }, 'failure_kw is too long'],
  ])('%j → %s', (body, message) => {
    expect(error(body)).toBe(`json validation error: ${message}`);
  });

  it('reports the first error in Healthchecks field order, not JSON key order', () => {
    expect(error({ timeout: 1, name: 5 })).toBe('json validation error: name is not a string');
    expect(error({ unique: 5, channels: 5 })).toBe('json validation error: channels is not a string');
    expect(error({ tz: 'x', grace: 1 })).toBe('json validation error: grace is too small');
  });
});

describe('slugify (Django)', () => {
  it.each([
    ['Foo', 'foo'],
    ['Nightly Backup', 'nightly-backup'],
    ['  Ünïcödé -- job_1! ', 'unicode-job_1'],
    ['__x__', 'x'],
    ['a   b', 'a-b'],
  ])('%j → %j', (input, slug) => expect(slugify(input)).toBe(slug));
});

describe('canonicalTimezone', () => {
  it('accepts canonical names case-sensitively and maps legacy ones', () => {
    expect(canonicalTimezone('UTC')).toBe('UTC');
    expect(canonicalTimezone('Europe/Riga')).toBe('Europe/Riga');
    expect(canonicalTimezone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimezone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimezone('Etc/GMT+5')).toBe('Etc/GMT+5');
    expect(canonicalTimezone('utc')).toBeNull();
    expect(canonicalTimezone('Mars/Olympus')).toBeNull();
  });
});
