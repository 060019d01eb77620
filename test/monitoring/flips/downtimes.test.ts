// monthlyDowntimes: seconds down and down periods per calendar month (UTC), newest first, from
// the flips, as Healthchecks' Check.downtimes() computes them (its own cases, test_check_model.py).
import { describe, expect, it } from 'vitest';
import { dayStarts, flipsSinceAnyZone, monthlyDowntimes, monthStarts, weekStarts, type FlipInput } from '../../../src/monitoring/flips/downtimes.ts';

const DAY = 86_400;
const at = (iso: string) => new Date(iso);
const flip = (iso: string, oldStatus: string): FlipInput => ({ createdAt: at(iso), oldStatus });
/** The months as ISO strings with their figures, for compact expectations. */
const plain = (rows: ReturnType<typeof monthlyDowntimes>) => rows.map((r) => [r.month.toISOString().slice(0, 7), r.downtime, r.outages]);

describe('monthlyDowntimes (pure)', () => {
  // Healthchecks' CURRENT_TIME in its tests.
  const NOW = at('2020-01-15T00:00:00Z');

  it('gives the current month and the ones before it, newest first, across a year boundary', () => {
    expect(monthStarts(NOW, 3).map((d) => d.toISOString())).toEqual(['2020-01-01T00:00:00.000Z', '2019-12-01T00:00:00.000Z', '2019-11-01T00:00:00.000Z']);
    expect(monthStarts(at('2020-03-31T23:59:59.999Z'), 14).at(-1)!.toISOString()).toBe('2019-02-01T00:00:00.000Z');
  });

  it('no flips, up: nothing anywhere', () => {
    expect(plain(monthlyDowntimes('up', [], NOW, 3))).toEqual([['2020-01', 0, 0], ['2019-12', 0, 0], ['2019-11', 0, 0]]);
  });

  it('down all along (no flips): every month down whole, the current one up to now, one period each', () => {
    const rows = monthlyDowntimes('down', [], NOW, 10);
    expect(rows).toHaveLength(10);
    expect(plain(rows).slice(0, 3)).toEqual([['2020-01', 14 * DAY, 1], ['2019-12', 31 * DAY, 1], ['2019-11', 30 * DAY, 1]]);
    expect(rows.every((r) => r.outages === 1)).toBe(true);
  });

  it('a flip to down a day ago: one day in January, nothing before', () => {
    const rows = monthlyDowntimes('down', [flip('2020-01-14T00:00:00Z', 'up')], NOW, 10);
    expect(plain(rows)[0]).toEqual(['2020-01', DAY, 1]);
    expect(rows.slice(1).every((r) => r.downtime === 0 && r.outages === 0)).toBe(true);
  });

  it('down since two months ago: counted in each month it covers', () => {
    expect(plain(monthlyDowntimes('down', [flip('2019-11-15T00:00:00Z', 'up')], NOW, 3))).toEqual([
      ['2020-01', 14 * DAY, 1],
      ['2019-12', 31 * DAY, 1],
      ['2019-11', 16 * DAY, 1],
    ]);
  });

  it('months are UTC: a flip at 23:00 UTC on 31 December is December’s last hour', () => {
    // Healthchecks' Europe/Riga case put this hour in January; in UTC it is December's.
    expect(plain(monthlyDowntimes('down', [flip('2019-12-31T23:00:00Z', 'up')], NOW, 2))).toEqual([
      ['2020-01', 14 * DAY, 1],
      ['2019-12', 3600, 1],
    ]);
  });

  it('outages that ended: each down period once, its seconds in its month; paused and new are not down', () => {
    const flips = [
      flip('2020-01-10T12:00:00Z', 'down'), // up again
      flip('2020-01-10T11:00:00Z', 'up'), // down for an hour
      flip('2020-01-08T00:00:00Z', 'paused'), // resumed: paused is not down
      flip('2020-01-03T00:00:00Z', 'down'), // paused while down: down ends here
      flip('2020-01-02T00:00:00Z', 'up'), // down for a day
      flip('2019-12-20T00:00:30Z', 'down'),
      flip('2019-12-20T00:00:00Z', 'new'), // down for 30 s right after its first ping was missed
    ];
    expect(plain(monthlyDowntimes('up', flips, NOW, 3))).toEqual([['2020-01', DAY + 3600, 2], ['2019-12', 30, 1], ['2019-11', 0, 0]]);
  });

  it('reads only flips after the oldest month’s start (Healthchecks’ created > min(boundaries)), in any order', () => {
    // The flip exactly at the oldest start, and older ones, are left out: the walk then treats
    // the time before the first kept flip with that flip's old status.
    const flips = [flip('2019-11-01T00:00:00Z', 'down'), flip('2019-12-10T00:00:00Z', 'down'), flip('2019-10-01T00:00:00Z', 'up')];
    expect(plain(monthlyDowntimes('up', flips, NOW, 3))).toEqual([['2020-01', 0, 0], ['2019-12', 9 * DAY, 1], ['2019-11', 30 * DAY, 1]]);
  });

  it('counts whole seconds of the sum', () => {
    const rows = monthlyDowntimes('up', [flip('2020-01-02T00:00:01.600Z', 'down'), flip('2020-01-02T00:00:00.700Z', 'up')], NOW, 1);
    expect(plain(rows)).toEqual([['2020-01', 0, 1]]);
    const longer = monthlyDowntimes('up', [flip('2020-01-02T00:00:02.600Z', 'down'), flip('2020-01-02T00:00:00.700Z', 'up')], NOW, 1);
    expect(plain(longer)).toEqual([['2020-01', 1, 1]]);
  });

  it('takes 1 to 12 months', () => {
    expect(monthlyDowntimes('up', [], NOW, 1)).toHaveLength(1);
    expect(monthlyDowntimes('up', [], NOW, 12)).toHaveLength(12);
    for (const m of [0, 13, 1.5]) expect(() => monthlyDowntimes('up', [], NOW, m)).toThrow('months must be between 1 and 12');
  });
});

describe('monthlyDowntimes in a time zone (Check.downtimes(months, tz))', () => {
  const NOW = at('2020-01-15T00:00:00Z');
  const zoned = (rows: ReturnType<typeof monthlyDowntimes>) => rows.map((r) => [r.month.toISOString(), r.downtime, r.outages, r.noData]);

  it('Healthchecks’ Europe/Riga case: 23:00 UTC on 31 December is January’s first hour there', () => {
    expect(zoned(monthlyDowntimes('down', [flip('2019-12-31T23:00:00Z', 'up')], NOW, 2, 'Europe/Riga'))).toEqual([
      // Months start at local midnight (+02:00); January: 14 days and an hour down.
      ['2019-12-31T22:00:00.000Z', 14 * DAY + 3600, 1, false],
      ['2019-11-30T22:00:00.000Z', 0, 0, false],
    ]);
  });

  it('west of UTC the current month can still be the previous one: at 02:00 UTC on 1 February it is January in New York', () => {
    const now = at('2020-02-01T02:00:00Z');
    expect(monthStarts(now, 2, 'America/New_York').map((d) => d.toISOString())).toEqual(['2020-01-01T05:00:00.000Z', '2019-12-01T05:00:00.000Z']);
    // Down since 04:00 UTC on 31 January (23:00 in New York): all of it is in New York's January.
    expect(zoned(monthlyDowntimes('down', [flip('2020-01-31T04:00:00Z', 'up')], now, 2, 'America/New_York'))).toEqual([
      ['2020-01-01T05:00:00.000Z', 22 * 3600, 1, false],
      ['2019-12-01T05:00:00.000Z', 0, 0, false],
    ]);
    // The same outage in UTC months: 20 hours in January, 2 in February.
    expect(zoned(monthlyDowntimes('down', [flip('2020-01-31T04:00:00Z', 'up')], now, 2))).toEqual([
      ['2020-02-01T00:00:00.000Z', 2 * 3600, 1, false],
      ['2020-01-01T00:00:00.000Z', 20 * 3600, 1, false],
    ]);
  });

  it('a month that started in summer time and ended in winter time is counted in UTC seconds', () => {
    // Riga: October 2019 ran from +03:00 to +02:00 (clocks back on the 27th): 31 days and an hour.
    const rows = monthlyDowntimes('down', [], at('2019-11-10T00:00:00Z'), 2, 'Europe/Riga');
    expect(zoned(rows)[1]).toEqual(['2019-09-30T21:00:00.000Z', 31 * DAY + 3600, 1, false]);
  });

  it('marks the months before the check existed as no data (created after the month ended)', () => {
    const rows = monthlyDowntimes('new', [], NOW, 3, 'UTC', at('2020-01-01T09:00:00Z'));
    expect(rows.map((r) => r.noData)).toEqual([false, true, true]);
    // In Riga, 09:00 UTC on 1 January is still January: December had ended there too.
    expect(monthlyDowntimes('new', [], NOW, 3, 'Europe/Riga', at('2019-12-31T21:00:00Z')).map((r) => r.noData)).toEqual([false, false, true]);
  });

  it('starts a day at midnight as Python does, after the gap when midnight does not exist (Santiago, 11 September 2022)', () => {
    expect(dayStarts(at('2022-09-12T12:00:00Z'), 3, 'America/Santiago').map((d) => d.toISOString())).toEqual([
      '2022-09-12T03:00:00.000Z',
      '2022-09-11T04:00:00.000Z',
      '2022-09-10T04:00:00.000Z',
    ]);
  });

  it('starts weeks on Monday in the zone', () => {
    // Monday 13 January 02:00 UTC is Sunday evening in New York, Monday morning in Tokyo.
    const now = at('2020-01-13T02:00:00Z');
    expect(weekStarts(now, 2, 'America/New_York').map((d) => d.toISOString())).toEqual(['2020-01-06T05:00:00.000Z', '2019-12-30T05:00:00.000Z']);
    expect(weekStarts(now, 1, 'Asia/Tokyo').map((d) => d.toISOString())).toEqual(['2020-01-12T15:00:00.000Z']);
  });

  it('reads flips early enough for any zone before the zone is known', () => {
    for (const tz of ['Pacific/Kiritimati', 'Etc/GMT+12', 'UTC']) {
      for (const iso of ['2020-02-01T05:00:00Z', '2020-01-31T12:00:00Z', '2020-03-01T00:00:00Z']) {
        expect(flipsSinceAnyZone(at(iso), 3).getTime()).toBeLessThanOrEqual(monthStarts(at(iso), 3, tz).at(-1)!.getTime());
      }
    }
  });
});
