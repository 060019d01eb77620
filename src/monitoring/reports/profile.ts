// An account's report settings, Healthchecks' Profile fields (hc/accounts/models.py): reports
// (off, daily, weekly, monthly), nag_period (off, hourly, daily), tz, and the two dates the
// scheduler keeps (next_report_date, next_nag_date). Stored in AccountProfile, one row per
// account; an account without a row has Healthchecks' defaults (monthly, no nags, UTC).
// Both transports (GraphQL, the unsubscribe page) and the importer go through these functions.
import type { Db } from '../../db/client.ts';
import { validationError } from '../../shared/errors.ts';
import { checkTimeZone } from '../flips/downtimes.ts';
import { chooseNextReportDate, REPORT_PERIODS, type Random, type ReportPeriod } from './schedule.ts';

export { REPORT_PERIODS, type ReportPeriod };
/** Healthchecks' NAG_PERIODS, in seconds: disabled, hourly, daily. */
export const NAG_PERIODS = [0, 3600, 86400] as const;

export interface ReportSettings {
  reports: ReportPeriod;
  /** Seconds: 0 (off), 3600 or 86400. */
  nagPeriod: number;
  tz: string;
  nextReportAt: Date | null;
  nextNagAt: Date | null;
}

/** Healthchecks' Profile defaults. */
export const DEFAULT_REPORT_SETTINGS: ReportSettings = { reports: 'monthly', nagPeriod: 0, tz: 'UTC', nextReportAt: null, nextNagAt: null };

export const isReportPeriod = (s: string): s is ReportPeriod => (REPORT_PERIODS as readonly string[]).includes(s);

function fromRow(row: { reports: string; nagPeriod: number; tz: string; nextReportAt: Date | null; nextNagAt: Date | null } | null): ReportSettings {
  if (!row) return { ...DEFAULT_REPORT_SETTINGS };
  return { reports: isReportPeriod(row.reports) ? row.reports : 'off', nagPeriod: row.nagPeriod, tz: row.tz, nextReportAt: row.nextReportAt, nextNagAt: row.nextNagAt };
}

export async function reportSettingsOf(db: Db, personId: number): Promise<ReportSettings> {
  return fromRow(await db.accountProfile.findUnique({ where: { personId } }));
}

/** The account's time zone (UTC without settings): downtime months and report periods use it. */
export async function accountTimeZone(db: Db, personId: number): Promise<string> {
  const row = await db.accountProfile.findUnique({ where: { personId }, select: { tz: true } });
  return row?.tz ?? DEFAULT_REPORT_SETTINGS.tz;
}

export interface ReportSettingsInput {
  reports?: string | null;
  /** Seconds. */
  nagPeriod?: number | null;
  tz?: string | null;
}

export interface ReportSettingsDeps {
  db: Db;
  clock: { now(): Date };
  random?: Random;
}

/** Is any check of the account's projects stored as down? (Healthchecks' any_down.) */
export async function anyCheckDown(db: Pick<Db, 'check'>, personId: number): Promise<boolean> {
  return (await db.check.count({ where: { status: 'down', project: { members: { some: { personId } } } }, take: 1 })) > 0;
}

/**
 * Changes the account's settings (only what `input` gives), as Healthchecks' notifications
 * page saves them: the next report is chosen again for the new period and zone; a nag period
 * that changes starts the nag clock now when something is down (update_next_nag_date), or
 * stops it when nags are turned off.
 */
export async function setReportSettings(deps: ReportSettingsDeps, personId: number, input: ReportSettingsInput): Promise<ReportSettings> {
  if (input.reports != null && !isReportPeriod(input.reports)) throw validationError(`reports must be one of ${REPORT_PERIODS.join(', ')}`);
  if (input.nagPeriod != null && !(NAG_PERIODS as readonly number[]).includes(input.nagPeriod)) throw validationError(`Bad nag_period: ${input.nagPeriod}`);
  const tz = input.tz == null ? undefined : checkTimeZone(input.tz);
  const now = deps.clock.now();
  const current = await reportSettingsOf(deps.db, personId);
  const next: ReportSettings = {
    ...current,
    reports: (input.reports as ReportPeriod | null | undefined) ?? current.reports,
    nagPeriod: input.nagPeriod ?? current.nagPeriod,
    tz: tz ?? current.tz,
  };
  next.nextReportAt = chooseNextReportDate(next.reports, next.tz, now, deps.random);
  if (next.nagPeriod !== current.nagPeriod) {
    if (!next.nagPeriod) next.nextNagAt = null;
    else if (await anyCheckDown(deps.db, personId)) next.nextNagAt ??= new Date(now.getTime() + next.nagPeriod * 1000);
    else next.nextNagAt = null;
  }
  const data = { reports: next.reports, nagPeriod: next.nagPeriod, tz: next.tz, nextReportAt: next.nextReportAt, nextNagAt: next.nextNagAt };
  await deps.db.accountProfile.upsert({ where: { personId }, create: { personId, ...data }, update: data });
  return next;
}

/** What the unsubscribe link does (Healthchecks' unsubscribe_reports): no reports, no nags. */
export async function unsubscribeAccount(db: Db, personId: number): Promise<void> {
  const data = { reports: 'off', nextReportAt: null, nagPeriod: 0, nextNagAt: null };
  await db.accountProfile.upsert({ where: { personId }, create: { personId, ...data }, update: data });
}
