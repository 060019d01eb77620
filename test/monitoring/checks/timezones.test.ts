import { describe, expect, it } from 'vitest';
import { allTimezones, canonicalTimezone } from '../../../src/monitoring/checks/timezones.ts';
import { nextOccurrence } from '../../../src/monitoring/checks/schedule.ts';

describe('canonicalTimezone', () => {
  it.each(['UTC', 'Etc/UTC', 'Etc/GMT', 'Etc/GMT+5', 'Etc/GMT-14', 'Europe/Riga', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires'])(
    'keeps the canonical name %s',
    (name) => expect(canonicalTimezone(name)).toBe(name),
  );

  it.each([
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['UCT', 'Etc/UTC'],
    ['Zulu', 'Etc/UTC'],
    ['Universal', 'Etc/UTC'],
    ['GMT0', 'Etc/GMT'],
    ['Greenwich', 'Etc/GMT'],
    ['CET', 'Europe/Brussels'],
    ['EST5EDT', 'America/New_York'],
    ['US/Eastern', 'America/New_York'],
    ['US/Central', 'America/Chicago'],
    ['US/Mountain', 'America/Denver'],
    ['US/Pacific', 'America/Los_Angeles'],
    ['US/Alaska', 'America/Anchorage'],
    ['US/Hawaii', 'Pacific/Honolulu'],
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
    ['Asia/Katmandu', 'Asia/Kathmandu'],
    ['Australia/ACT', 'Australia/Sydney'],
    // Healthchecks' own targets, surprising as they look:
    ['Iceland', 'Africa/Abidjan'],
    ['Pacific/Truk', 'Pacific/Port_Moresby'],
    ['Africa/Asmera', 'Africa/Nairobi'],
  ])('maps the legacy name %s to %s, as Healthchecks stores it', (legacy, canonical) => {
    expect(canonicalTimezone(legacy)).toBe(canonical);
  });

  it.each(['GMT', 'Europe/Belfast', 'Etc/UCT', 'Asia/Istanbul', 'America/Atka'])(
    'keeps %s as it is, because Healthchecks lists it among its valid names',
    (name) => expect(canonicalTimezone(name)).toBe(name),
  );

  it.each(['utc', 'europe/riga', 'Mars/Olympus', '', ' UTC', 'UTC ', 'Etc/GMT+15', 'America/Coyhaique'])(
    'rejects %j (case-sensitive; only Healthchecks’ list)',
    (name) => expect(canonicalTimezone(name)).toBeNull(),
  );

  it('accepts exactly the 483 names of Healthchecks’ all_timezones', () => {
    expect(allTimezones()).toHaveLength(483);
  });

  it('accepts only names that Node’s Intl can evaluate schedules in', () => {
    const after = new Date('2026-01-01T00:00:00Z');
    for (const name of allTimezones()) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: name }), name).not.toThrow();
      expect(nextOccurrence('0 0 * * *', name, after), name).not.toBeNull();
    }
  });
});
