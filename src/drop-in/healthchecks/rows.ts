// One Healthchecks row (a dumpdata object's fields, or a database row whose columns the source
// names after the fields) in the importer's terms. Fields that older Healthchecks versions did
// not have take the value their migrations gave (e.g. a check's subject filters before they
// became keyword filters); users are named by username (the sources resolve ids to names).
import type { HcChannel, HcCheck, HcCredential, HcFlip, HcMember, HcNotification, HcPing, HcProfile, HcProject, HcUser } from './model.ts';
import { SourceError } from './model.ts';
import { djangoBinary, djangoDate, djangoDuration, djangoUuid, flag, integer, nullableInteger, nullableText, requiredDate, text } from './values.ts';

export type Fields = Record<string, unknown>;

/** How the source writes durations: dumpdata as text, SQLite in microseconds, PostgreSQL (as read) in seconds. */
export type DurationUnit = 'text' | 'microseconds' | 'seconds';

const where = (model: string, pk: unknown) => `${model} ${pk === undefined ? '' : `#${String(pk)}`}`.trim();

function username(value: unknown, what: string): string {
  if (typeof value === 'string' && value) return value;
  throw new SourceError(`${what}: no user`);
}

export function user(f: Fields): HcUser {
  const name = username(f.username, 'auth.user');
  return {
    username: name,
    email: text(f.email).trim(),
    password: text(f.password),
    firstName: text(f.first_name),
    lastName: text(f.last_name),
    isActive: f.is_active === undefined ? true : flag(f.is_active),
    isStaff: flag(f.is_staff),
    isSuperuser: flag(f.is_superuser),
    dateJoined: djangoDate(f.date_joined, `auth.user ${name}: date_joined`),
  };
}

export function profile(f: Fields, pk: unknown, unit: DurationUnit): HcProfile {
  const w = where('accounts.profile', pk);
  return {
    user: username(f.user, w),
    reports: f.reports !== undefined ? text(f.reports) : f.reports_allowed === undefined || flag(f.reports_allowed) ? 'monthly' : 'off',
    nextReportDate: djangoDate(f.next_report_date, `${w}: next_report_date`),
    nagPeriod: djangoDuration(f.nag_period, `${w}: nag_period`, unit) ?? 0,
    nextNagDate: djangoDate(f.next_nag_date, `${w}: next_nag_date`),
    pingLogLimit: f.ping_log_limit === undefined || f.ping_log_limit === null ? 100 : integer(f.ping_log_limit, `${w}: ping_log_limit`),
    tz: text(f.tz) || 'UTC',
    totp: nullableText(f.totp) || null,
    totpCreated: djangoDate(f.totp_created, `${w}: totp_created`),
  };
}

export function project(f: Fields, pk: unknown): HcProject {
  const w = where('accounts.project', pk);
  return {
    pk: integer(pk, w),
    code: djangoUuid(f.code, `${w}: code`),
    name: text(f.name),
    owner: username(f.owner, w),
    apiKey: text(f.api_key),
    apiKeyReadonly: text(f.api_key_readonly),
    badgeKey: text(f.badge_key),
    pingKey: nullableText(f.ping_key) || null,
  };
}

export function member(f: Fields, pk: unknown): HcMember {
  const w = where('accounts.member', pk);
  // Before roles (Healthchecks 1.x) a member could only be a regular one.
  const role = f.role === undefined ? (f.rw === undefined || flag(f.rw) ? 'w' : 'r') : text(f.role);
  return { user: username(f.user, w), project: integer(f.project, `${w}: project`), role };
}

export function check(f: Fields, pk: unknown, unit: DurationUnit): HcCheck {
  const w = where('api.check', pk);
  const code = djangoUuid(f.code, `${w}: code`);
  const at = `api.check ${code}`;
  // Before keyword filters (Healthchecks 2.x) the email subject filters were the only ones.
  const legacySubject = f.success_kw === undefined && (f.subject !== undefined || f.subject_fail !== undefined);
  const successKw = legacySubject ? text(f.subject) : text(f.success_kw);
  const failureKw = legacySubject ? text(f.subject_fail) : text(f.failure_kw);
  return {
    pk: integer(pk, w),
    code,
    project: integer(f.project, `${at}: project`),
    name: text(f.name),
    slug: text(f.slug),
    tags: text(f.tags),
    desc: text(f.desc),
    created: requiredDate(f.created, `${at}: created`),
    kind: text(f.kind) || 'simple',
    timeout: djangoDuration(f.timeout, `${at}: timeout`, unit) ?? 86400,
    grace: djangoDuration(f.grace, `${at}: grace`, unit) ?? 3600,
    schedule: f.schedule === undefined || f.schedule === null ? '* * * * *' : text(f.schedule),
    tz: text(f.tz) || 'UTC',
    filterSubject: legacySubject ? Boolean(successKw || failureKw) : flag(f.filter_subject),
    filterBody: flag(f.filter_body),
    filterHttpBody: flag(f.filter_http_body),
    filterDefaultFail: flag(f.filter_default_fail),
    startKw: text(f.start_kw),
    successKw,
    failureKw,
    methods: text(f.methods),
    manualResume: flag(f.manual_resume),
    badgeKey: f.badge_key === undefined || f.badge_key === null || f.badge_key === '' ? '' : djangoUuid(f.badge_key, `${at}: badge_key`),
    nPings: f.n_pings === undefined || f.n_pings === null ? 0 : integer(f.n_pings, `${at}: n_pings`),
    lastPing: djangoDate(f.last_ping, `${at}: last_ping`),
    lastStart: djangoDate(f.last_start, `${at}: last_start`),
    lastStartRid: djangoUuid(f.last_start_rid, `${at}: last_start_rid`, true),
    lastDuration: djangoDuration(f.last_duration, `${at}: last_duration`, unit),
    alertAfter: djangoDate(f.alert_after, `${at}: alert_after`),
    status: text(f.status) || 'new',
  };
}

export function channel(f: Fields, pk: unknown, checks: number[]): HcChannel {
  const w = where('api.channel', pk);
  const code = djangoUuid(f.code, `${w}: code`);
  return {
    pk: integer(pk, w),
    code,
    project: integer(f.project, `api.channel ${code}: project`),
    name: text(f.name),
    created: djangoDate(f.created, `api.channel ${code}: created`) ?? new Date(0),
    kind: text(f.kind),
    value: text(f.value),
    disabled: flag(f.disabled),
    // Older instances have no such column: their channels were all sending.
    emailVerified: f.email_verified === undefined || f.email_verified === null ? true : flag(f.email_verified),
    checks: checks.map((c) => integer(c, `api.channel ${code}: checks`)),
  };
}

export function ping(f: Fields, pk: unknown): HcPing {
  const w = where('api.ping', pk);
  return {
    pk: integer(pk, w),
    n: nullableInteger(f.n, `${w}: n`),
    check: integer(f.owner, `${w}: owner`),
    created: requiredDate(f.created, `${w}: created`),
    kind: nullableText(f.kind) || null,
    scheme: text(f.scheme) || 'http',
    remoteAddr: nullableText(f.remote_addr) || null,
    method: text(f.method),
    ua: text(f.ua),
    // Before body_raw (Healthchecks 2.x) bodies were text.
    body: djangoBinary(f.body_raw, `${w}: body_raw`) ?? (typeof f.body === 'string' && f.body ? Buffer.from(f.body, 'utf8') : null),
    objectSize: nullableInteger(f.object_size, `${w}: object_size`),
    exitStatus: nullableInteger(f.exitstatus, `${w}: exitstatus`),
    rid: djangoUuid(f.rid, `${w}: rid`, true),
  };
}

export function flip(f: Fields, pk: unknown): HcFlip {
  const w = where('api.flip', pk);
  return {
    pk: integer(pk, w),
    check: integer(f.owner, `${w}: owner`),
    created: requiredDate(f.created, `${w}: created`),
    processed: djangoDate(f.processed, `${w}: processed`),
    oldStatus: text(f.old_status),
    newStatus: text(f.new_status),
    reason: text(f.reason),
  };
}

export function notification(f: Fields, pk: unknown): HcNotification {
  const w = where('api.notification', pk);
  return {
    pk: integer(pk, w),
    code: djangoUuid(f.code, `${w}: code`),
    check: nullableInteger(f.owner, `${w}: owner`),
    checkStatus: text(f.check_status),
    channel: integer(f.channel, `${w}: channel`),
    created: requiredDate(f.created, `${w}: created`),
    error: text(f.error),
  };
}

export function credential(f: Fields, pk: unknown): HcCredential {
  const w = where('accounts.credential', pk);
  return {
    code: djangoUuid(f.code, `${w}: code`),
    name: text(f.name),
    user: username(f.user, w),
    created: djangoDate(f.created, `${w}: created`) ?? new Date(0),
    data: djangoBinary(f.data, `${w}: data`) ?? Buffer.alloc(0),
  };
}
