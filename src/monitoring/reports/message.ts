// The report and nag mails, as Healthchecks renders its templates (templates/emails/report-*,
// nag-*, report-summary-html.html, nag-summary-html.html, base.html at 29b5ec25): the same
// subjects, the same plain-text bodies line for line (the asciitable tables included), and HTML
// bodies with the same sentences and tables in a lighter wrapper. Pure: data in, text out.
import { approxDuration, asciiTable, escapeHtml, formatDate, mangleLink, naturalTime, pluralize } from './format.ts';
import type { ReportPeriod } from './profile.ts';

export interface MailText {
  subject: string;
  text: string;
  html: string;
}

/** One period's downtime, as DowntimeRecord shows it. */
export interface PeriodFigures {
  outages: number;
  /** Seconds down. */
  downtime: number;
  /** Milliseconds down (the sort key). */
  durationMs: number;
  noData: boolean;
}

export interface ReportCheck {
  name: string;
  code: string;
  tags: string[];
  /** The status shown at the time of the report (get_status: grace and due "down" included). */
  status: string;
  lastPing: Date | null;
  projectId: string;
  projectName: string;
  /** Where "Details…" links. */
  url: string;
  /** Reports: the past periods, oldest first (Healthchecks shows the two before the current one). */
  periods: PeriodFigures[];
}

export interface MailContext {
  siteName: string;
  siteRoot: string;
  /** The account's time zone: periods and dates are shown in it. */
  tz: string;
  unsubscribeUrl: string;
  /** The page to change these settings (Healthchecks' "Email Reports" page). */
  settingsUrl: string;
  now: Date;
}

export interface ReportInput extends MailContext {
  period: Exclude<ReportPeriod, 'off'>;
  /** The past periods' starts, oldest first. */
  boundaries: Date[];
  /** Sorted by project name, then project id (the order Healthchecks queries them in). */
  checks: ReportCheck[];
}

export interface NagInput extends MailContext {
  /** Seconds: 3600 or 86400 name the reminder ("hourly", "daily"). */
  nagPeriod: number;
  /** The checks that are down, sorted by project name, then project id. */
  checks: ReportCheck[];
}

const nameThenCode = (c: ReportCheck) => c.name || c.code;
const uppercaseIfDown = (s: string) => (s === 'down' ? 'DOWN' : s);
/** Healthchecks' project __str__ (its name; ours has no owner's address to fall back to). */
const projectTitle = (c: ReportCheck) => c.projectName || c.projectId;

/** regroup: consecutive checks of the same project. */
function groups(checks: ReportCheck[]): ReportCheck[][] {
  const out: ReportCheck[][] = [];
  for (const c of checks) {
    const last = out.at(-1);
    if (last && last[0]!.projectId === c.projectId) last.push(c);
    else out.push([c]);
  }
  return out;
}

/** natural_name_key: the name in lower case, numbers zero-padded to 8 digits, so "job 9" < "job 10". */
const naturalKey = (c: ReportCheck) => c.name.toLowerCase().trim().replace(/\d+/g, (n) => n.padStart(8, '0'));
const byNaturalName = (a: ReportCheck, b: ReportCheck) => {
  const x = naturalKey(a);
  const y = naturalKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** sortbydowntime: by name, then by the last period's downtime, longest first (stable). */
const sortByDowntime = (checks: ReportCheck[]) =>
  [...checks].sort(byNaturalName).sort((a, b) => (b.periods.at(-1)?.durationMs ?? 0) - (a.periods.at(-1)?.durationMs ?? 0));

/** sortchecks:"name": by name, then down ones first (stable). */
const sortByName = (checks: ReportCheck[]) => [...checks].sort(byNaturalName).sort((a, b) => Number(a.status !== 'down') - Number(b.status !== 'down'));

function periodLabel(period: ReportInput['period'], start: Date, tz: string): string {
  if (period === 'weekly') return `${formatDate(start, tz, 'M j')} - ${formatDate(start, tz, 'M j', 6)}`;
  if (period === 'daily') return formatDate(start, tz, 'F j');
  return formatDate(start, tz, 'N Y');
}

/** report-when.html: "In January", "Last week (January 6 to January 12)", "Yesterday (January 12)". */
export function reportWhen(period: ReportInput['period'], boundary: Date, tz: string): string {
  if (period === 'monthly') return `In ${formatDate(boundary, tz, 'F')}`;
  if (period === 'weekly') return `Last week (${formatDate(boundary, tz, 'F j')} to ${formatDate(boundary, tz, 'F j', 6)})`;
  return `Yesterday (${formatDate(boundary, tz, 'F j')})`;
}

/** Text bodies: make_message turns the no-break spaces of durations into plain spaces. */
const plainSpaces = (s: string) => s.replaceAll('\u00a0', ' ');

function textTail(siteName: string) {
  return `\n\n--\nCheers,\n${siteName}\n`;
}

function htmlPage(title: string, content: string, ctx: MailContext): string {
  return `<!DOCTYPE html>
<html>
<head>
<title>${escapeHtml(title)}</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body style="margin: 0 !important; padding: 0 !important;">
<table border="0" cellpadding="0" cellspacing="0" width="100%">
    <tr>
        <td align="center" style="padding: 50px 15px 70px 15px;">
            <table border="0" cellpadding="0" cellspacing="0" width="100%" style="max-width: 600px;">
                <tr>
                    <td style="padding: 0; font-size: 16px; line-height: 25px; font-family: Helvetica, Arial, sans-serif; color: #666666;">
${content}
                    </td>
                </tr>
            </table>
        </td>
    </tr>
    <tr>
        <td align="center" style="font-size: 12px; line-height: 18px; font-family: Helvetica, Arial, sans-serif; color:#666666; padding: 20px 0px;">
            © ${ctx.now.getUTCFullYear()} ${escapeHtml(ctx.siteName)}. All rights reserved.
            <br>
            <a href="${escapeHtml(ctx.unsubscribeUrl)}" target="_blank" style="color: #666666; text-decoration: underline;">Unsubscribe</a>
        </td>
    </tr>
</table>
</body>
</html>
`;
}

const BADGE = 'font-family: Helvetica, Arial, sans-serif; font-weight: bold; font-size: 10px; line-height: 10px; color: white; padding: 6px; border-radius: 3px;';
const STATUS_BADGES: Record<string, [string, string]> = {
  new: ['#AAA', 'NEW'],
  paused: ['#AAA', 'PAUSED'],
  grace: ['#f0ad4e', 'LATE'],
  up: ['#5cb85c', 'UP'],
  down: ['#d9534f', 'DOWN'],
};
const CELL = 'border-top: 1px solid #EDEFF2; padding: 16px 8px;';
const FONT = 'font-family: Helvetica, Arial, sans-serif;';

function statusBadge(status: string): string {
  const badge = STATUS_BADGES[status];
  return badge ? `<td style="background: ${badge[0]}; ${BADGE}">${badge[1]}</td>` : '';
}

function nameCell(c: ReportCheck): string {
  const name = c.name ? mangleLink(c.name) : '<span style="color: #74787E; font-style: italic;">unnamed</span>';
  const tags = c.tags.length
    ? `<br /><table cellpadding="0" cellspacing="0"><tr>${c.tags
        .map(
          (t) =>
            `<td style="padding-right: 4px"><table cellpadding="0" cellspacing="0"><tr><td style="background: #eee; ${FONT} font-size: 10px; line-height: 10px; color: #555; padding: 4px; margin: 0; border-radius: 2px;">${mangleLink(t)}</td></tr></table></td>`,
        )
        .join('')}</tr></table>`
    : '';
  return `<td style="${CELL} ${FONT}">${name}${tags}</td>`;
}

function groupHeader(c: ReportCheck, extra: string): string {
  return `<tr><td colspan="2" style="font-weight: bold; padding: 32px 8px 8px 8px; color: #333;">${mangleLink(projectTitle(c))}</td>${extra}</tr>`;
}

const HEADER_CELL = `padding: 32px 8px 8px 8px; margin: 0; font-size: 12px; color: #9BA2AB; ${FONT}`;

/** The monthly, weekly or daily report (Profile.send_report). */
export function reportMail(input: ReportInput): MailText {
  const { period, tz } = input;
  const last = input.boundaries.length - 1;
  let nchecks = 0;
  let ntimes = 0;
  for (const c of input.checks) {
    const count = c.periods[last]?.outages ?? 0;
    if (count) {
      nchecks += 1;
      ntimes += count;
    }
  }
  const when = reportWhen(period, input.boundaries[last]!, tz);
  const summary = nchecks
    ? `${when}, ${nchecks} check${pluralize(nchecks)} had ${ntimes} downtime event${pluralize(ntimes)}.`
    : `${when}, no checks had downtimes. Nice!`;
  const labels = input.boundaries.map((b) => periodLabel(period, b, tz));
  const cellText = (d: PeriodFigures) => (d.outages ? `${d.outages} downtime${pluralize(d.outages)},\n${approxDuration(d.downtime)} total` : d.noData ? '' : 'All good!');

  let text = ['Hello,', '', summary].join('\n');
  for (const group of groups(input.checks)) {
    const rows = [['Status', 'Name', ...labels], ...sortByDowntime(group).map((c) => [uppercaseIfDown(c.status), nameThenCode(c), ...c.periods.map(cellText)])];
    text += `\n\nProject "${projectTitle(group[0]!)}"\n${asciiTable(rows)}\n`;
  }
  text += textTail(input.siteName);

  const cellHtml = (d: PeriodFigures) =>
    d.outages
      ? `<td style="${CELL} ${FONT}">${d.outages}&nbsp;downtime${pluralize(d.outages)},<br />${approxDuration(d.downtime)} total</td>`
      : `<td style="${CELL} ${FONT} color: #9BA2AB;">${d.noData ? '' : 'All good!'}</td>`;
  const table = groups(input.checks)
    .map(
      (group) =>
        groupHeader(group[0]!, labels.map((l) => `<td style="${HEADER_CELL}">${escapeHtml(l)}</td>`).join('')) +
        sortByDowntime(group)
          .map((c) => `<tr><td style="${CELL}"><table cellpadding="0" cellspacing="0"><tr>${statusBadge(c.status)}</tr></table></td>${nameCell(c)}${c.periods.map(cellHtml).join('')}</tr>`)
          .join(''),
    )
    .join('');
  const lead = nchecks
    ? `${escapeHtml(when)}, <strong>${nchecks} check${pluralize(nchecks)}</strong> had <strong>${ntimes} downtime event${pluralize(ntimes)}</strong>.`
    : `${escapeHtml(when)}, no checks had downtimes. Nice!`;
  const content = `${lead}
<table style="margin: 0; width: 100%; font-size: 16px;" cellpadding="0" cellspacing="0">${table}</table>
<br />
Just one more thing to check:
<strong>Do you have more cron jobs or periodic processes,
that are not yet on this list?</strong>
Set up monitoring for them, get notified when they don't run on time!
<br /><br />

Cheers,<br>
The ${escapeHtml(input.siteName)} Team`;
  // report-subject.html: {{ report_period|capfirst }} Report.
  const subject = `${period[0]!.toUpperCase()}${period.slice(1)} Report`;
  return { subject, text: plainSpaces(text), html: htmlPage(subject, content, input) };
}

/** The nag: the checks that are down, with their last pings (Profile.send_report(nag=True)). */
export function nagMail(input: NagInput): MailText {
  const n = input.checks.length;
  const how = input.nagPeriod === 3600 ? 'hourly ' : input.nagPeriod === 86400 ? 'daily ' : '';
  const lastPing = (c: ReportCheck) => (c.lastPing ? naturalTime(c.lastPing, input.now) : 'Never');
  let text = `Hello,\n\nThis is a ${how}reminder sent by ${input.siteName}.\n${n === 1 ? 'One check is currently DOWN:' : `${n} checks are currently DOWN:`}\n`;
  for (const group of groups(input.checks)) {
    const rows = [['Status', 'Name', 'Last Ping'], ...sortByName(group).map((c) => [uppercaseIfDown(c.status), nameThenCode(c), lastPing(c)])];
    text += `\n\nProject "${projectTitle(group[0]!)}"\n${asciiTable(rows)}\n`;
  }
  text += textTail(input.siteName);

  const table = groups(input.checks)
    .map(
      (group) =>
        groupHeader(group[0]!, `<td style="${HEADER_CELL}">Last Ping</td>`) +
        sortByName(group)
          .map(
            (c) =>
              `<tr><td style="${CELL}"><table cellpadding="0" cellspacing="0"><tr>${statusBadge('down')}</tr></table></td>${nameCell(c)}<td style="${CELL} ${FONT}">${escapeHtml(lastPing(c))}<br /><a href="${escapeHtml(c.url)}" target="_blank">Details…</a></td></tr>`,
          )
          .join(''),
    )
    .join('');
  const content = `Hello,<br />

This is a
${how.trim()}
reminder sent by <a href="${escapeHtml(input.siteRoot)}">${escapeHtml(input.siteName)}</a>.<br />

${n === 1 ? 'One check is currently <strong>DOWN</strong>:<br />' : `${n} checks are currently <strong>DOWN</strong>:<br />`}
<table style="margin: 0; width: 100%; font-size: 16px;" cellpadding="0" cellspacing="0">${table}</table>
<br />
<strong>Too many notifications?</strong>
Visit the <a href="${escapeHtml(input.settingsUrl)}">Email Reports</a>
page on ${escapeHtml(input.siteName)} to set your notification preferences.
<br /><br />

Cheers,<br>
The ${escapeHtml(input.siteName)} Team`;
  // nag-subject.html.
  const subject = `Reminder: ${n} check${pluralize(n)} still down`;
  return { subject, text: plainSpaces(text), html: htmlPage(subject, content, input) };
}
