// One pass of the report scheduler: Healthchecks' sendreports (handle_one_report,
// handle_one_nag) and the nag bookkeeping its sendalerts does after each flip
// (Project.update_next_nag_dates). Due mail is prepared here and queued in the notification
// outbox (notifications/prepared-mail.ts), in the transaction that moves the account's
// next date on: a compare-and-set on that date, so with several instances, or a pass that runs
// twice, each report and nag is queued once; the outbox then sends it once, restarts or not.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { accountEmail, maySignIn } from '../../identity/accounts.ts';
import { computeStatus } from '../checks/status.ts';
import { dayStarts, downtimesByBoundary, monthStarts, weekStarts } from '../flips/downtimes.ts';
import { checkUrl } from '../integrations/kinds/shared/text.ts';
import { tagList } from '../checks/derived.ts';
import type { PreparedMail } from '../notifications/prepared-mail.ts';
import { secretKey } from '../secret-key.ts';
import { nagMail, reportMail, type MailContext, type MailText, type ReportCheck } from './message.ts';
import { DEFAULT_REPORT_SETTINGS, isReportPeriod, type ReportPeriod } from './profile.ts';
import { chooseNextReportDate, type Random } from './schedule.ts';
import { signUsername, unsubscribeUrl } from './unsubscribe-link.ts';

export interface ReportDeps {
  db: Db;
  /** SITE_ROOT, SITE_NAME and SECRET_KEY (the monitoring settings; read when a mail is made). */
  settings: { siteRoot: string; siteName: string; secretKey?: string | null };
  random?: Random;
}

export interface ReportPassResult {
  /** Accounts given their first report date. */
  scheduled: number;
  reports: number;
  nags: number;
}

/** Accounts handled per step of a pass; the rest wait for the next pass (which comes at once). */
const BATCH = 100;
/** Healthchecks sends nothing to an account none of whose checks was pinged in 180 days. */
const QUIET_MS = 180 * 86_400_000;

const inProjectsOf = (personId: number) => ({ project: { members: { some: { personId } } } });

export async function runReportPass(deps: ReportDeps, now: Date): Promise<ReportPassResult> {
  const scheduled = await scheduleNewAccounts(deps, now);
  const reports = await sendDueReports(deps, now);
  await updateNagDates(deps.db, now);
  const nags = await sendDueNags(deps, now);
  return { scheduled, reports, nags };
}

/**
 * Healthchecks makes a profile for every user (reports monthly) and schedules its first report
 * without sending one. Here: accounts in a project that have no settings yet, and settings
 * whose report is not scheduled (reports turned on by an import, say).
 */
async function scheduleNewAccounts(deps: ReportDeps, now: Date): Promise<number> {
  const { db } = deps;
  let count = 0;
  // From the memberships (few) rather than the people (every campus record).
  const fresh = await db.projectMember.findMany({ where: { person: { reportProfile: { is: null } } }, select: { personId: true }, distinct: ['personId'], take: BATCH });
  for (const { personId } of fresh) {
    const nextReportAt = chooseNextReportDate(DEFAULT_REPORT_SETTINGS.reports, DEFAULT_REPORT_SETTINGS.tz, now, deps.random);
    try {
      await db.accountProfile.create({ data: { personId, nextReportAt } });
      count++;
    } catch (err) {
      // Another instance (or the account itself, saving its settings) made it first.
      if ((err as { code?: string }).code !== 'P2002') throw err;
    }
  }
  const unscheduled = await db.accountProfile.findMany({ where: { reports: { not: 'off' }, nextReportAt: null }, take: BATCH });
  for (const p of unscheduled) {
    if (!isReportPeriod(p.reports)) continue;
    const next = chooseNextReportDate(p.reports, p.tz, now, deps.random);
    count += (await db.accountProfile.updateMany({ where: { personId: p.personId, nextReportAt: null }, data: { nextReportAt: next } })).count;
  }
  return count;
}

/** handle_one_report for every account whose report is due (next_report_date < now). */
async function sendDueReports(deps: ReportDeps, now: Date): Promise<number> {
  const { db } = deps;
  const due = await db.accountProfile.findMany({ where: { reports: { not: 'off' }, nextReportAt: { lt: now } }, orderBy: { nextReportAt: 'asc' }, take: BATCH });
  let queued = 0;
  for (const profile of due) {
    if (!isReportPeriod(profile.reports) || profile.reports === 'off') continue;
    // Made before the transaction (reads only): the transaction is the date's move and the insert.
    const mail = await prepareMail(deps, profile.personId, now, { report: profile.reports, tz: profile.tz });
    const next = chooseNextReportDate(profile.reports, profile.tz, now, deps.random);
    queued += await db.$transaction(async (tx) => {
      const moved = await tx.accountProfile.updateMany({ where: { personId: profile.personId, nextReportAt: profile.nextReportAt }, data: { nextReportAt: next } });
      // Moved elsewhere meanwhile (another instance sent it, or the account changed its settings).
      if (moved.count !== 1 || !mail) return 0;
      await tx.notification.create({ data: accountMailRow(profile.personId, 'report', mail, now) });
      return 1;
    });
  }
  return queued;
}

/**
 * update_next_nag_date for every account, as Healthchecks does after each flip: the nag clock
 * starts (one period from now) when something is down and nags are on; it stops when nothing
 * is down. Both are compare-and-sets, so a concurrent pass changes nothing twice.
 */
async function updateNagDates(db: Db, now: Date): Promise<void> {
  const anyDown = { projectMemberships: { some: { project: { checks: { some: { status: 'down' } } } } } };
  const starting = await db.accountProfile.findMany({ where: { nagPeriod: { gt: 0 }, nextNagAt: null, person: anyDown }, select: { personId: true, nagPeriod: true }, take: BATCH });
  for (const p of starting) {
    await db.accountProfile.updateMany({ where: { personId: p.personId, nextNagAt: null }, data: { nextNagAt: new Date(now.getTime() + p.nagPeriod * 1000) } });
  }
  await db.accountProfile.updateMany({ where: { nextNagAt: { not: null }, person: { projectMemberships: { none: { project: { checks: { some: { status: 'down' } } } } } } }, data: { nextNagAt: null } });
}

/** handle_one_nag for every account whose nag is due (next_nag_date < now). */
async function sendDueNags(deps: ReportDeps, now: Date): Promise<number> {
  const { db } = deps;
  const due = await db.accountProfile.findMany({ where: { nagPeriod: { gt: 0 }, nextNagAt: { lt: now } }, orderBy: { nextNagAt: 'asc' }, take: BATCH });
  let queued = 0;
  for (const profile of due) {
    const mail = await prepareMail(deps, profile.personId, now, { nagPeriod: profile.nagPeriod, tz: profile.tz });
    const next = new Date(now.getTime() + profile.nagPeriod * 1000);
    queued += await db.$transaction(async (tx) => {
      const moved = await tx.accountProfile.updateMany({ where: { personId: profile.personId, nextNagAt: profile.nextNagAt }, data: { nextNagAt: next } });
      if (moved.count !== 1) return 0;
      if (!mail) {
        // Nothing down (or nothing to send): the nag clock stops until something goes down.
        await tx.accountProfile.updateMany({ where: { personId: profile.personId, nextNagAt: next }, data: { nextNagAt: null } });
        return 0;
      }
      await tx.notification.create({ data: accountMailRow(profile.personId, 'report-nag', mail, now) });
      return 1;
    });
  }
  return queued;
}

function accountMailRow(personId: number, reason: 'report' | 'report-nag', mail: PreparedMail, now: Date) {
  return {
    code: randomUUID(),
    channelId: null,
    personId,
    checkId: null,
    flipId: null,
    reason,
    // The column wants a status: a nag is about checks that are down; a report is not an alert.
    status: reason === 'report-nag' ? 'down' : 'up',
    eventAt: now,
    nextAttemptAt: now,
    createdAt: now,
    message: JSON.stringify(mail),
  };
}

type MailKind = { report: Exclude<ReportPeriod, 'off'>; tz: string } | { nagPeriod: number; tz: string };

/** The three period starts a report needs (the current one and the two before it), newest first. */
function reportBoundaries(period: Exclude<ReportPeriod, 'off'>, now: Date, tz: string): Date[] {
  if (period === 'monthly') return monthStarts(now, 3, tz);
  if (period === 'weekly') return weekStarts(now, 3, tz);
  return dayStarts(now, 3, tz);
}

/**
 * Profile.send_report: the report or nag for the account at `now`, ready to queue; null when
 * there is nothing to send (no check pinged in 180 days, no address or login, or, for a nag,
 * nothing down).
 */
export async function prepareMail(deps: ReportDeps, personId: number, now: Date, kind: MailKind): Promise<PreparedMail | null> {
  const { db } = deps;
  const latest = await db.check.aggregate({ where: inProjectsOf(personId), _max: { lastPing: true } });
  const lastPing = latest._max.lastPing;
  if (!lastPing || lastPing.getTime() < now.getTime() - QUIET_MS) return null;
  const [person, to] = await Promise.all([db.person.findUnique({ where: { ID: personId }, select: { Username: true, AccountLevel: true } }), accountEmail(db, personId)]);
  // A disabled account (or a contact without a login) gets no mail: it could not act on it.
  if (!person?.Username || !maySignIn(person.AccountLevel) || !to) return null;

  const tz = kind.tz;
  const boundaries = 'report' in kind ? reportBoundaries(kind.report, now, tz) : [];
  const oldest = boundaries.at(-1);
  const rows = await db.check.findMany({
    where: inProjectsOf(personId),
    include: { project: { select: { name: true } }, flips: oldest ? { where: { createdAt: { gt: oldest } }, select: { createdAt: true, oldStatus: true } } : false },
  });
  const { siteRoot, siteName } = deps.settings;
  const checks: ReportCheck[] = rows
    .map((c) => {
      // downtimes_by_boundary gives newest first; the mail shows the two past periods, oldest first.
      const periods = oldest ? downtimesByBoundary(c.status, c.flips ?? [], now, boundaries, c.createdAt).reverse().slice(0, -1) : [];
      return {
        name: c.name,
        code: c.code,
        tags: tagList(c.tags),
        status: computeStatus(c, now) as string,
        lastPing: c.lastPing,
        projectId: c.projectId,
        projectName: c.project.name,
        url: checkUrl(siteRoot, c),
        periods: periods.map((p) => ({ outages: p.outages, downtime: p.downtime, durationMs: p.durationMs, noData: p.noData })),
      };
    })
    // Healthchecks orders by project name, then project id (regroup needs them together).
    .sort((a, b) => compare(a.projectName, b.projectName) || compare(a.projectId, b.projectId));

  const signed = signUsername(person.Username, await secretKey(db, deps.settings.secretKey), now);
  const unsubscribe = unsubscribeUrl(siteRoot, signed);
  const ctx: MailContext = { siteName, siteRoot, tz, unsubscribeUrl: unsubscribe, settingsUrl: `${siteRoot}/#/settings`, now };
  let text: MailText;
  if ('report' in kind) {
    text = reportMail({ ...ctx, period: kind.report, boundaries: boundaries.slice(1).reverse(), checks });
  } else {
    const down = checks.filter((c) => c.status === 'down');
    if (!down.length) return null;
    text = nagMail({ ...ctx, nagPeriod: kind.nagPeriod, checks: down });
  }
  return {
    to,
    ...text,
    // As Healthchecks sets them: mail clients offer a one-click unsubscribe (RFC 8058).
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** When the next pass has work: the earliest report or nag date (null: nothing scheduled). */
export async function nextReportWorkAt(db: Db): Promise<Date | null> {
  const [report, nag] = await Promise.all([
    db.accountProfile.aggregate({ where: { reports: { not: 'off' } }, _min: { nextReportAt: true } }),
    db.accountProfile.aggregate({ where: { nagPeriod: { gt: 0 } }, _min: { nextNagAt: true } }),
  ]);
  const times = [report._min.nextReportAt, nag._min.nextNagAt].filter((d): d is Date => d !== null);
  return times.length ? new Date(Math.min(...times.map((d) => d.getTime()))) : null;
}
