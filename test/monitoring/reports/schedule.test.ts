// When reports are due (Healthchecks' choose_next_report_date, values from Python's zoneinfo) and
// the unsubscribe link's signature (Django's TimestampSigner with salt "reports", values from
// Python's hmac): pure functions.
import { describe, expect, it } from 'vitest';
import { chooseNextReportDate } from '../../../src/monitoring/reports/schedule.ts';
import { b62encode, signUsername, unsignUsername, unsubscribeUrl } from '../../../src/monitoring/reports/unsubscribe-link.ts';

const at = (iso: string) => new Date(iso);
/** A random draw giving `minutes` in randrange(0, 120). */
const draw = (minutes: number) => () => (minutes + 0.5) / 120;

describe('chooseNextReportDate', () => {
  it('schedules as Healthchecks does: 9:00 local (seconds kept) plus the random minutes, on the next day that fits', () => {
    const cases: Array<[Parameters<typeof chooseNextReportDate>[0], string, string, number, string]> = [
      ['monthly', 'UTC', '2020-01-13T02:00:37Z', 0, '2020-02-01T09:00:37.000Z'],
      ['weekly', 'UTC', '2020-01-13T02:00:00Z', 119, '2020-01-20T10:59:00.000Z'],
      // Already 1 March in Riga, but the next 1st comes after a day is added: 1 April, in summer time.
      ['monthly', 'Europe/Riga', '2026-02-28T23:30:00Z', 5, '2026-04-01T06:05:00.000Z'],
      // New York springs forward on 8 March: 9:30 local is 13:30 UTC that day.
      ['daily', 'America/New_York', '2026-03-07T20:00:00Z', 30, '2026-03-08T13:30:00.000Z'],
      ['weekly', 'Asia/Tokyo', '2026-01-04T16:00:00Z', 0, '2026-01-12T00:00:00.000Z'],
      // UTC+14: 31 January 09:59 UTC is 1 February 23:59 there; the next 1st is March.
      ['monthly', 'Pacific/Kiritimati', '2026-01-31T09:59:00Z', 0, '2026-01-31T19:00:00.000Z'],
    ];
    for (const [reports, tz, now, minutes, expected] of cases) {
      expect(chooseNextReportDate(reports, tz, at(now), draw(minutes))?.toISOString(), `${reports} ${tz} ${now}`).toBe(expected);
    }
    expect(chooseNextReportDate('off', 'UTC', at('2020-01-13T02:00:00Z'))).toBeNull();
  });

  it('always lands between 9:00 and 11:00 local', () => {
    for (let i = 0; i < 50; i++) {
      const next = chooseNextReportDate('daily', 'Asia/Kolkata', at('2026-05-05T12:34:56Z'))!;
      const local = new Date(next.getTime() + 5.5 * 3600_000);
      expect(local.getUTCDate()).toBe(6);
      expect(local.getUTCHours() * 60 + local.getUTCMinutes()).toBeGreaterThanOrEqual(9 * 60);
      expect(local.getUTCHours() * 60 + local.getUTCMinutes()).toBeLessThan(11 * 60 + 1);
    }
  });
});

describe('the unsubscribe link', () => {
  const SECRET = 'django-insecure-test-key';

  it('is signed as Django’s TimestampSigner(salt="reports") signs the username', () => {
    expect(b62encode(1578880800)).toBe('1iqp1M');
    expect(signUsername('alice', SECRET, at('2020-01-13T02:00:00Z'))).toBe('alice:1iqp1M:Rgg25ch2G27Q_bxMmTr0wphWoF-iSg2YRBqJueBLUyg');
    expect(unsignUsername('alice:1pQm2C:gT_oKuKC9h6jFc1G3jz-EstX8uberDDdhgv2Ei8vKtg', SECRET)?.username).toBe('alice');
    expect(unsubscribeUrl('https://hc.example.org', 'alice:1iqp1M:sig')).toBe('https://hc.example.org/accounts/unsubscribe_reports/alice:1iqp1M:sig/');
  });

  it('refuses a tampered link, another secret, and garbage', () => {
    const signed = signUsername('alice', SECRET, at('2020-01-13T02:00:00Z'));
    expect(unsignUsername(signed, SECRET)).toEqual({ username: 'alice', signedAt: at('2020-01-13T02:00:00Z') });
    expect(unsignUsername(signed.replace('alice', 'bob'), SECRET)).toBeNull();
    expect(unsignUsername(`${signed.slice(0, -1)}A`, SECRET)).toBeNull();
    expect(unsignUsername(signed, 'another secret')).toBeNull();
    for (const junk of ['', 'invalid', 'a:b', ':::']) expect(unsignUsername(junk, SECRET)).toBeNull();
  });
});
