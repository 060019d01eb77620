// The report and nag mails against Healthchecks' own expectations (hc/accounts/tests/
// test_profile_model.py at 29b5ec25: the clock at 2020-01-13 02:00 UTC, a check "Foo" created in
// October, down since 23:00 on 31 December): subjects, summary lines, period columns in the
// account's zone, the plain-text tables, and the formatting filters they use.
import { describe, expect, it } from 'vitest';
import { dayStarts, downtimesByBoundary, monthStarts, weekStarts } from '../../../src/monitoring/flips/downtimes.ts';
import { nagMail, reportMail, type ReportCheck, type ReportInput } from '../../../src/monitoring/reports/message.ts';
import { approxDuration, asciiTable, formatDate, naturalTime } from '../../../src/monitoring/reports/format.ts';

const NOW = new Date('2020-01-13T02:00:00Z');
const CTX = { siteName: 'Mychecks', siteRoot: 'https://hc.example.org', unsubscribeUrl: 'https://hc.example.org/accounts/unsubscribe_reports/x/', settingsUrl: 'https://hc.example.org/#/settings', now: NOW };
const FLIP = { createdAt: new Date('2019-12-31T23:00:00Z'), oldStatus: 'new' };

type Period = ReportInput['period'];
const starts = { monthly: monthStarts, weekly: weekStarts, daily: dayStarts };

/** Healthchecks' fixture: Foo, down, created 2019-10-01, last ping and flip at 2019-12-31 23:00 UTC. */
function report(period: Period, tz = 'UTC', over: Partial<ReportCheck> & { created?: Date; flips?: (typeof FLIP)[]; stored?: string } = {}) {
  const boundaries = starts[period](NOW, 3, tz);
  const periods = downtimesByBoundary(over.stored ?? 'down', over.flips ?? [FLIP], NOW, boundaries, over.created ?? new Date('2019-10-01T00:00:00Z')).reverse().slice(0, -1);
  const check: ReportCheck = {
    name: 'Foo',
    code: '6d9e5f0a-0000-4000-8000-000000000000',
    tags: [],
    status: over.stored ?? 'down',
    lastPing: new Date('2019-12-31T23:00:00Z'),
    projectId: 'p1',
    projectName: 'Alices Project',
    url: 'https://hc.example.org/checks/x',
    periods,
    ...over,
  };
  return reportMail({ ...CTX, tz, period, boundaries: boundaries.slice(1).reverse(), checks: [check] });
}

describe('the report mail', () => {
  it('monthly: "Monthly Report", the summary of December, November and December in both bodies', () => {
    const mail = report('monthly');
    expect(mail.subject).toBe('Monthly Report');
    expect(mail.text).toBe(
      [
        'Hello,',
        '',
        'In December, 1 check had 1 downtime event.',
        '',
        'Project "Alices Project"',
        '+--------+------+-----------+-----------------+',
        '| Status | Name | Nov. 2019 | Dec. 2019       |',
        '+========+======+===========+=================+',
        '| DOWN   | Foo  | All good! | 1 downtime,     |',
        '|        |      |           | 1 h 0 min total |',
        '+--------+------+-----------+-----------------+',
        '',
        '',
        '--',
        'Cheers,',
        'Mychecks',
        '',
      ].join('\n'),
    );
    expect(mail.html).toContain('In December, <strong>1 check</strong> had <strong>1 downtime event</strong>.');
    for (const fragment of ['Nov. 2019', 'Dec. 2019', 'All good!', '1 h 0 min total', 'Foo', 'Unsubscribe']) expect(mail.html).toContain(fragment);
    // Check UUIDs appear nowhere (Healthchecks' test), nor January or October.
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('6d9e5f0a');
      expect(body).not.toMatch(/Oct\. 2019|Jan\. 2020/);
    }
  });

  it('says "no checks had downtimes. Nice!" when the last period had none', () => {
    const mail = report('monthly', 'UTC', { stored: 'up', flips: [] });
    expect(mail.text).toContain('In December, no checks had downtimes. Nice!');
    expect(mail.html).toContain('In December, no checks had downtimes. Nice!');
  });

  it('weekly: last week, with weeks starting on Monday', () => {
    const mail = report('weekly');
    expect(mail.subject).toBe('Weekly Report');
    expect(mail.text).toContain('Last week (January 6 to January 12), 1 check had 1 downtime event.');
    expect(mail.html).toContain('Last week (January 6 to January 12), <strong>1 check</strong> had <strong>1 downtime event</strong>.');
    for (const label of ['Dec 30 - Jan 5', 'Jan 6 - Jan 12']) expect(mail.text).toContain(label);
  });

  it('daily: yesterday', () => {
    const mail = report('daily');
    expect(mail.subject).toBe('Daily Report');
    expect(mail.text).toContain('Yesterday (January 12), 1 check had 1 downtime event.');
    expect(mail.html).toContain('Yesterday (January 12), <strong>1 check</strong> had <strong>1 downtime event</strong>.');
    for (const label of ['January 11', 'January 12']) expect(mail.text).toContain(label);
  });

  it('bounds the periods in the account’s zone: west of UTC it is still last week there', () => {
    // UTC: Monday 13 January, 2:00. New York: Sunday 12 January, 21:00: the week of 6–12 January is the current one.
    const ny = report('weekly', 'America/New_York');
    expect(ny.text).toContain('Dec 23 - Dec 29');
    expect(ny.text).toContain('Dec 30 - Jan 5');
    expect(ny.text).not.toContain('Jan 6 - Jan 12');
    expect(ny.text).toContain('Last week (December 30 to January 5)');
    // Tokyo: Monday 13 January, 11:00.
    const tokyo = report('weekly', 'Asia/Tokyo');
    expect(tokyo.text).not.toContain('Dec 23 - Dec 29');
    expect(tokyo.text).toContain('Dec 30 - Jan 5');
    expect(tokyo.text).toContain('Last week (January 6 to January 12)');
  });

  it('leaves the months a check did not exist in empty', () => {
    const mail = report('monthly', 'UTC', { stored: 'new', flips: [], created: new Date('2020-01-05T00:00:00Z') });
    expect(mail.text).not.toContain('All good!');
    expect(mail.text).not.toContain('total');
    expect(mail.text).toContain(
      ['+--------+------+-----------+-----------+', '| Status | Name | Nov. 2019 | Dec. 2019 |', '+========+======+===========+===========+', '| new    | Foo  |           |           |', '+--------+------+-----------+-----------+'].join('\n'),
    );
  });

  it('does not escape the text body; escapes and mangles names in the HTML one', () => {
    const mail = report('monthly', 'UTC', { name: 'Foo & Bar', projectName: 'Alice & Friends' });
    expect(mail.text).toContain('Project "Alice & Friends"');
    expect(mail.text).toContain('Foo & Bar');
    expect(mail.html).toContain('Foo &amp; Bar');
    expect(reportMail({ ...CTX, tz: 'UTC', period: 'daily', boundaries: dayStarts(NOW, 3).slice(1).reverse(), checks: [] }).text).toContain('no checks had downtimes');
  });
});

describe('the nag mail', () => {
  it('is Healthchecks’ text to the character', () => {
    const check: ReportCheck = {
      name: 'Foo',
      code: 'c',
      tags: [],
      status: 'down',
      lastPing: new Date('2019-12-31T23:00:00Z'),
      projectId: 'p1',
      projectName: 'Alices Project',
      url: 'https://hc.example.org/checks/x',
      periods: [],
    };
    const mail = nagMail({ ...CTX, tz: 'UTC', nagPeriod: 3600, checks: [check] });
    expect(mail.subject).toBe('Reminder: 1 check still down');
    expect(mail.text).toBe(`Hello,

This is a hourly reminder sent by Mychecks.
One check is currently DOWN:


Project "Alices Project"
+--------+------+--------------------+
| Status | Name | Last Ping          |
+========+======+====================+
| DOWN   | Foo  | 1 week, 5 days ago |
+--------+------+--------------------+


--
Cheers,
Mychecks
`);
    expect(mail.html).toContain('One check is currently <strong>DOWN</strong>');
    expect(mail.html).toContain('https://hc.example.org/#/settings');
    const two = nagMail({ ...CTX, tz: 'UTC', nagPeriod: 86400, checks: [check, { ...check, name: 'Bar', lastPing: null }] });
    expect(two.subject).toBe('Reminder: 2 checks still down');
    expect(two.text).toContain('This is a daily reminder sent by Mychecks.\n2 checks are currently DOWN:');
    // By name: Bar before Foo; never pinged says so.
    expect(two.text).toContain('| DOWN   | Bar  | Never              |\n+--------+------+--------------------+\n| DOWN   | Foo  |');
  });
});

describe('the filters', () => {
  it('naturaltime as django.contrib.humanize words it', () => {
    const now = new Date('2020-01-13T02:00:00Z');
    const ago = (iso: string) => naturalTime(new Date(iso), now).replaceAll('\u00a0', ' ');
    expect(ago('2020-01-13T02:00:00Z')).toBe('now');
    expect(ago('2020-01-13T01:59:59Z')).toBe('a second ago');
    expect(ago('2020-01-13T01:59:00Z')).toBe('a minute ago');
    expect(ago('2020-01-13T01:00:00Z')).toBe('an hour ago');
    expect(ago('2020-01-12T03:00:00Z')).toBe('23 hours ago');
    expect(ago('2020-01-12T02:00:00Z')).toBe('1 day ago');
    expect(ago('2019-11-13T01:00:00Z')).toBe('2 months ago');
    expect(ago('2018-11-10T00:00:00Z')).toBe('1 year, 2 months ago');
  });

  it('hc_approx_duration, the date formats, and multi-line table cells', () => {
    expect([59, 61, 3600, 86400 + 7200, 3 * 86400].map(approxDuration)).toEqual(['0 min 59 sec', '1 min 1 sec', '1 h 0 min', '1 day 2 h', '3 days 0 h']);
    const d = new Date('2019-09-02T00:00:00Z');
    expect([formatDate(d, 'UTC', 'N Y'), formatDate(d, 'UTC', 'M j'), formatDate(d, 'UTC', 'F j'), formatDate(d, 'UTC', 'M j', 6)]).toEqual(['Sept. 2019', 'Sep 2', 'September 2', 'Sep 8']);
    expect(formatDate(d, 'America/New_York', 'F j')).toBe('September 1');
    expect(asciiTable([['a', 'b'], ['x\nyy', '']])).toBe('+----+---+\n| a  | b |\n+====+===+\n| x  |   |\n| yy |   |\n+----+---+');
  });
});
