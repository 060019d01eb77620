// Reports and nags by email, end to end on the injected clock: an account's settings over
// GraphQL, the scheduler's passes (w.app.reports.tick()), the outbox delivering to the SMTP
// sink (w.app.notifier.tick()), the unsubscribe link, and a restart between queueing and
// sending. Each test has its own project and account; the accounts are removed after it.
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { mailTo, useSmtpSink, useWorld } from '../../helpers/fixtures.ts';
import { browserClient, type BrowserClient } from '../../helpers/browser-client.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { createAccount } from '../../../src/identity/accounts.ts';
import { addMember } from '../../../src/identity/memberships.ts';
import { runMonitorPass } from '../../../src/monitoring/monitor/pass.ts';
import { createProject, type CreatedProject } from '../../../src/monitoring/projects/service.ts';
import { reportSettingsOf, setReportSettings } from '../../../src/monitoring/reports/profile.ts';
import type { SinkMessage } from '../../helpers/receivers.ts';
import { waitFor } from '../../helpers/redis.ts';

const sink = useSmtpSink({ reset: true });
const w = useWorld(mailTo(sink, { SITE_NAME: 'Mychecks' }));

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
let n = 0;
const people: number[] = [];
afterEach(async () => {
  // Deleting the account removes its settings and its mail in the outbox: the next test starts clean.
  await w.app.db.person.deleteMany({ where: { ID: { in: people.splice(0) } } });
});

/** A project with an account that owns it. */
async function setup(name: string) {
  n++;
  const project = await createProject(w.app.db, { name });
  const account = await createAccount(w.app.db, { username: `reader${n}`, email: `reader${n}@example.org`, password: PASSWORD, level: 'User' });
  people.push(account.id);
  await addMember({ db: w.app.db, events: w.app.deps.events, clock: w.clock }, project.id, account.id, 'owner');
  return { project, account, username: `reader${n}` };
}

/** A check with a 60 s period (unless given) and 60 s grace, pinged at `at`: it goes down two minutes later. */
async function pingedCheck(project: CreatedProject, at: string, name: string, timeout = 60): Promise<string> {
  w.clock.set(at);
  const created = await w.api('POST', '/api/v3/checks/', { key: project.api_key, body: { name, timeout, grace: 60 } });
  expect(await w.ping(`/ping/${created.json.uuid}`)).toMatchObject({ status: 200 });
  return created.json.uuid as string;
}

async function signIn(username: string): Promise<BrowserClient> {
  const browser = browserClient(w);
  const res = await browser.gql(`mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }`, { u: username, p: PASSWORD });
  expect(res.errors).toBeUndefined();
  return browser;
}

/** One scheduler pass and the outbox's deliveries; the mail received so far. */
async function pass(): Promise<SinkMessage[]> {
  await w.app.reports.tick();
  await w.app.notifier.tick();
  return sink.messages;
}

const header = (m: SinkMessage, name: string) => {
  const line = m.parsed.headerLines.find((h) => h.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n\s+/g, ' ').trim();
};

const SETTINGS = `{ viewer { reportSettings { reports nagPeriod timeZone nextReportAt nextNagAt } } }`;
const SET = `mutation($r: ReportPeriod, $n: NagPeriod, $tz: String) { setReportSettings(reports: $r, nagPeriod: $n, timeZone: $tz) { reports nagPeriod timeZone nextReportAt nextNagAt } }`;

describe('the monthly report', () => {
  it('goes out on the 1st between 9 and 11 in the account’s zone, with January’s downtime counted in that zone', async () => {
    const { project, account, username } = await setup('Reports A');
    w.clock.set('2026-01-20T12:00:00Z');
    const browser = await signIn(username);
    expect((await browser.gql(SETTINGS)).data.viewer.reportSettings).toEqual({ reports: 'MONTHLY', nagPeriod: 'OFF', timeZone: 'UTC', nextReportAt: null, nextNagAt: null });
    const set = await browser.gql(SET, { r: 'MONTHLY', n: 'OFF', tz: 'Europe/Riga' });
    expect(set.errors).toBeUndefined();
    const next = new Date(set.data.setReportSettings.nextReportAt);
    // 1 February, 09:00–10:59 in Riga (UTC+2).
    expect(next.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-02-01T07:00:00Z'));
    expect(next.getTime()).toBeLessThan(Date.parse('2026-02-01T09:00:00Z'));
    expect((await browser.gql(SETTINGS)).data.viewer.reportSettings).toMatchObject({ reports: 'MONTHLY', timeZone: 'Europe/Riga', nextReportAt: next.toISOString() });

    // Down from 21:00 to 23:00 UTC on 31 January: 23:00–01:00 in Riga, so one hour in its January.
    const uuid = await pingedCheck(project, '2026-01-31T20:58:00Z', 'nightly backup');
    await runMonitorPass(w.app.deps, new Date('2026-01-31T21:30:00Z'));
    w.clock.set('2026-01-31T23:00:00Z');
    await w.ping(`/ping/${uuid}`);

    // Check.downtimes in the signed-in account's zone by default, in another when asked.
    w.clock.set('2026-02-01T05:00:00Z');
    const downtimes = await browser.gql(`query($id: ID!) { check(id: $id) { riga: downtimes(months: 2) { month downtime outages noData } utc: downtimes(months: 2, tz: "UTC") { month downtime } } }`, { id: uuid });
    expect(downtimes.errors).toBeUndefined();
    expect(downtimes.data.check.riga).toEqual([
      { month: '2026-01-31T22:00:00.000Z', downtime: 3600, outages: 1, noData: false },
      { month: '2025-12-31T22:00:00.000Z', downtime: 3600, outages: 1, noData: false },
    ]);
    expect(downtimes.data.check.utc).toEqual([
      { month: '2026-02-01T00:00:00.000Z', downtime: 0 },
      { month: '2026-01-01T00:00:00.000Z', downtime: 7200 },
    ]);
    const bad = await browser.gql(`query($id: ID!) { check(id: $id) { downtimes(tz: "Mars/Olympus") { month } } }`, { id: uuid });
    expect(bad.errors?.[0]).toMatchObject({ message: 'tz is not a valid time zone: Mars/Olympus', extensions: { code: 'BAD_USER_INPUT' } });

    // Due strictly after its time, as Healthchecks' next_report_date < now.
    w.clock.set(next);
    expect(await pass()).toHaveLength(0);
    w.clock.advance(1);
    const [mail] = await pass();
    expect(sink.messages).toHaveLength(1);
    expect(mail!.to).toEqual([account.email]);
    expect(mail!.parsed.subject).toBe('Monthly Report');
    const text = mail!.parsed.text!;
    expect(text).toContain('In January, 1 check had 1 downtime event.');
    expect(text).toContain('Project "Reports A"');
    // December is empty (the check did not exist yet); January shows Riga's hour.
    expect(text).toContain(
      [
        '+--------+----------------+-----------+-----------------+',
        '| Status | Name           | Dec. 2025 | Jan. 2026       |',
        '+========+================+===========+=================+',
        // DOWN: two minutes after its last ping it is late again (the status shown, as get_status).
        '| DOWN   | nightly backup |           | 1 downtime,     |',
        '|        |                |           | 1 h 0 min total |',
      ].join('\n'),
    );
    expect(mail!.parsed.html).toContain('In January, <strong>1 check</strong> had <strong>1 downtime event</strong>.');
    expect(header(mail!, 'list-unsubscribe')).toMatch(new RegExp(`^<${w.url}/accounts/unsubscribe_reports/${username}:[0-9A-Za-z]+:[\\w-]{43}/>$`));
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The next one: 1 March in Riga.
    const after = await reportSettingsOf(w.app.db, account.id);
    expect(after.nextReportAt!.toISOString().slice(0, 10)).toBe('2026-03-01');
    expect(await pass()).toHaveLength(1);
  });

  it('is changed by the account only, and refuses what Healthchecks refuses', async () => {
    const { username } = await setup('Reports B');
    const anonymous = await browserClient(w).gql(SET, { r: 'DAILY' });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const browser = await signIn(username);
    const zone = await browser.gql(SET, { tz: 'Mars/Olympus' });
    expect(zone.errors?.[0]).toMatchObject({ message: 'tz is not a valid time zone: Mars/Olympus', extensions: { code: 'BAD_USER_INPUT' } });
    // A legacy name is stored as its canonical zone.
    expect((await browser.gql(SET, { tz: 'Asia/Calcutta' })).data.setReportSettings.timeZone).toBe('Asia/Kolkata');
    const off = (await browser.gql(SET, { r: 'OFF' })).data.setReportSettings;
    expect(off).toMatchObject({ reports: 'OFF', nextReportAt: null });
  });
});

describe('weekly and daily reports', () => {
  it('weekly on Monday morning, daily every morning, in the account’s zone', async () => {
    const { project, account } = await setup('Reports C');
    await pingedCheck(project, '2026-03-04T12:00:00Z', 'hourly sync');
    const weekly = await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'weekly', tz: 'America/New_York' });
    // Monday 9 March, 09:00–10:59 in New York (daylight time from the 8th: UTC−4).
    expect(weekly.nextReportAt!.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-03-09T13:00:00Z'));
    expect(weekly.nextReportAt!.getTime()).toBeLessThan(Date.parse('2026-03-09T15:00:00Z'));
    w.clock.set(new Date(weekly.nextReportAt!.getTime() + 1));
    const [mail] = await pass();
    expect(mail!.parsed.subject).toBe('Weekly Report');
    expect(mail!.parsed.text).toContain('Last week (March 2 to March 8), no checks had downtimes. Nice!');
    expect(mail!.parsed.text).toContain('| Feb 23 - Mar 1 | Mar 2 - Mar 8 |');

    const daily = await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'daily' });
    expect(daily.nextReportAt!.toISOString().slice(0, 10)).toBe('2026-03-10');
    w.clock.set(new Date(daily.nextReportAt!.getTime() + 1));
    const messages = await pass();
    expect(messages).toHaveLength(2);
    expect(messages[1]!.parsed.subject).toBe('Daily Report');
    expect(messages[1]!.parsed.text).toContain('Yesterday (March 9), no checks had downtimes. Nice!');
    expect(messages[1]!.parsed.text).toContain('| March 8   | March 9   |');
  });

  it('schedules a new member’s first report (monthly, UTC) without sending one; sends nothing to an account whose checks went quiet', async () => {
    const { project, account } = await setup('Reports D');
    await pingedCheck(project, '2026-01-05T10:00:00Z', 'quiet job');
    const result = await w.app.reports.tick();
    expect(result.scheduled).toBeGreaterThanOrEqual(1);
    const settings = await reportSettingsOf(w.app.db, account.id);
    expect(settings).toMatchObject({ reports: 'monthly', nagPeriod: 0, tz: 'UTC' });
    expect(settings.nextReportAt!.toISOString()).toMatch(/^2026-02-01T(09|10):/);
    // Half a year later nothing was pinged for 180 days: the date moves on, no mail.
    w.clock.set('2026-08-01T12:00:00Z');
    expect(await pass()).toHaveLength(0);
    expect((await reportSettingsOf(w.app.db, account.id)).nextReportAt!.toISOString()).toMatch(/^2026-09-01/);
  });
});

describe('nags', () => {
  it('come every period while a check is down, list only the down checks, and stop when all are up', async () => {
    const { project, account } = await setup('Nags');
    await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'off', nagPeriod: 3600 });
    const down = await pingedCheck(project, '2026-04-01T10:00:00Z', 'db backup');
    await pingedCheck(project, '2026-04-01T10:00:00Z', 'healthy job', 30 * 86400);
    await w.ping(`/ping/${down}/fail`);
    expect(await pass()).toHaveLength(0);
    // The nag clock starts when the pass sees the down check: one period from then.
    expect((await reportSettingsOf(w.app.db, account.id)).nextNagAt).toEqual(new Date('2026-04-01T11:00:00Z'));

    w.clock.set('2026-04-01T10:59:59Z');
    expect(await pass()).toHaveLength(0);
    w.clock.set('2026-04-01T11:00:01Z');
    const [nag] = await pass();
    expect(nag!.parsed.subject).toBe('Reminder: 1 check still down');
    expect(nag!.parsed.text).toContain('This is a hourly reminder sent by Mychecks.\nOne check is currently DOWN:');
    expect(nag!.parsed.text).toContain('| DOWN   | db backup | an hour ago |');
    expect(nag!.parsed.text).not.toContain('healthy job');
    expect(header(nag!, 'list-unsubscribe')).toContain('/accounts/unsubscribe_reports/');

    w.clock.set('2026-04-01T12:00:02Z');
    expect(await pass()).toHaveLength(2);
    // Up again: the clock stops; hours later nothing more comes.
    await w.ping(`/ping/${down}`);
    await pass();
    expect((await reportSettingsOf(w.app.db, account.id)).nextNagAt).toBeNull();
    w.clock.set('2026-04-01T18:00:00Z');
    expect(await pass()).toHaveLength(2);
  });
});

describe('the scheduler', () => {
  it('runs a pass when a check flips, so the nag clock starts at once (as Healthchecks’ sendalerts does)', async () => {
    const { project, account } = await setup('Scheduler');
    await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'off', nagPeriod: 86400 });
    const uuid = await pingedCheck(project, '2026-07-01T10:00:00Z', 'job', 86400);
    w.app.reports.start();
    try {
      await w.ping(`/ping/${uuid}/fail`);
      await waitFor('the nag clock to start', async () => (await reportSettingsOf(w.app.db, account.id)).nextNagAt !== null);
      expect((await reportSettingsOf(w.app.db, account.id)).nextNagAt).toEqual(new Date('2026-07-02T10:00:00Z'));
    } finally {
      await w.app.reports.stop();
    }
  });
});

describe('the unsubscribe link', () => {
  it('works without signing in, asks before it acts, auto-confirms when older than five minutes, and refuses a tampered link', async () => {
    const { project, account } = await setup('Unsubscribe');
    await pingedCheck(project, '2026-05-04T08:00:00Z', 'job');
    const settings = await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'daily', nagPeriod: 86400 });
    w.clock.set(new Date(settings.nextReportAt!.getTime() + 1));
    const [mail] = await pass();
    const link = header(mail!, 'list-unsubscribe').slice(1, -1);
    expect(mail!.parsed.html).toContain(`href="${link}"`);

    const get = await fetch(link);
    expect(get.status).toBe(200);
    const page = await get.text();
    expect(page).toContain('Please press the button below to unsubscribe');
    expect(page).not.toContain('<script>');
    // Nothing happens on a GET (mail scanners open links).
    expect((await reportSettingsOf(w.app.db, account.id)).reports).toBe('daily');

    const tampered = link.replace(/.\/$/, (last) => `${last[0] === 'A' ? 'B' : 'A'}/`);
    for (const method of ['GET', 'POST']) {
      const refused = await fetch(tampered, { method });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('Incorrect Link');
    }
    expect(await (await fetch(link.replace(/reader\d+/, 'someone-else'), { method: 'POST' })).text()).toContain('Incorrect Link');
    expect((await reportSettingsOf(w.app.db, account.id)).reports).toBe('daily');

    w.clock.advance(301_000);
    expect(await (await fetch(link)).text()).toContain('<script>document.getElementById("form").submit();</script>');

    // A mail client's one-click unsubscribe (RFC 8058).
    const post = await fetch(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(post.status).toBe(200);
    expect(await post.text()).toContain('Your email address has been unsubscribed from Mychecks reports.');
    expect(await reportSettingsOf(w.app.db, account.id)).toMatchObject({ reports: 'off', nagPeriod: 0, nextReportAt: null, nextNagAt: null });
    w.clock.advance(3 * 86_400_000);
    expect(await pass()).toHaveLength(1);
  });
});

describe('across a restart', () => {
  it('a report the mail server refuses for now is retried, not lost', async () => {
    const { project, account } = await setup('Retry');
    await pingedCheck(project, '2026-06-10T08:00:00Z', 'job');
    const settings = await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'daily' });
    w.clock.set(new Date(settings.nextReportAt!.getTime() + 1));
    sink.refuse(451);
    expect(await pass()).toHaveLength(0);
    expect(await w.app.db.notification.findMany({ where: { personId: account.id } })).toMatchObject([{ state: 'pending', attempts: 1, lastError: expect.stringContaining('451') }]);
    sink.refuse(null);
    w.clock.advance(5_000);
    expect(await pass()).toHaveLength(1);
    expect(await w.app.db.notification.findMany({ where: { personId: account.id } })).toMatchObject([{ state: 'sent', attempts: 2 }]);
  });

  it('a report queued before the restart is sent once, and not queued again', async () => {
    const { project, account } = await setup('Restart');
    await pingedCheck(project, '2026-06-01T08:00:00Z', 'job');
    const settings = await setReportSettings({ db: w.app.db, clock: w.clock }, account.id, { reports: 'daily' });
    w.clock.set(new Date(settings.nextReportAt!.getTime() + 1));
    // Queued by this process, which then stops before its notifier sends anything.
    expect(await w.app.reports.tick()).toMatchObject({ reports: 1 });
    const queued = await w.app.db.notification.findMany({ where: { personId: account.id } });
    expect(queued).toMatchObject([{ reason: 'report', state: 'pending', channelId: null }]);

    // The restarted process on the same database, the same clock.
    const restarted = await buildApp(
      loadConfig({ DATABASE_URL: w.databaseUrl, MONITOR: 'off', NOTIFIER: 'off', LOG_LEVEL: 'silent', PORT: '0', SITE_NAME: 'Mychecks', ...mailTo(sink) }),
      { clock: w.clock, logger: pino({ level: 'silent' }) },
    );
    try {
      expect(await restarted.reports.tick()).toMatchObject({ reports: 0 });
      await restarted.notifier.tick();
      await restarted.notifier.tick();
      await w.app.notifier.tick();
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]!.parsed.subject).toBe('Daily Report');
      expect(await w.app.db.notification.findMany({ where: { personId: account.id } })).toMatchObject([{ state: 'sent', attempts: 1 }]);
    } finally {
      await restarted.stop();
    }
  });
});
