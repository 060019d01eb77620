// The bits of Django and Healthchecks' template filters the report and nag mails use, as they
// render in English: the date filter's month formats, humanize's naturaltime, pluralize,
// hc_approx_duration (hc/lib/date.py), mangle_link, and the asciitable tag of the text bodies
// (hc/front/templatetags/asciitable.py). Pure.
import { wallClockAt } from '../checks/zoned-time.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// Django's MONTHS_AP (the date filter's "N": Associated Press style).
const MONTHS_AP = ['Jan.', 'Feb.', 'March', 'April', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];

const DAY_MS = 86_400_000;

/** The local calendar fields of `instant` in `tz` (the template's {% timezone tz %}). */
export function localParts(instant: Date, tz: string): { year: number; month: number; day: number } {
  const wall = new Date(tz === 'UTC' ? instant.getTime() : wallClockAt(instant.getTime(), tz));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth(), day: wall.getUTCDate() };
}

/** The date `days` later on the local calendar (Healthchecks' add6days on an aware datetime). */
function plusDays(instant: Date, tz: string, days: number) {
  const { year, month, day } = localParts(instant, tz);
  const d = new Date(Date.UTC(year, month, day) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}

/** Django's date filter for the formats the mails use: "F", "F j", "M j", "N Y". */
export function formatDate(instant: Date, tz: string, format: 'F' | 'F j' | 'M j' | 'N Y', addDays = 0): string {
  const { year, month, day } = plusDays(instant, tz, addDays);
  switch (format) {
    case 'F':
      return MONTHS[month]!;
    case 'F j':
      return `${MONTHS[month]} ${day}`;
    case 'M j':
      return `${MONTHS[month]!.slice(0, 3)} ${day}`;
    case 'N Y':
      return `${MONTHS_AP[month]} ${year}`;
  }
}

/** Django's pluralize: "" for 1, "s" otherwise. */
export const pluralize = (n: number) => (n === 1 ? '' : 's');

/** Healthchecks' format_approx_duration (hc_approx_duration): "1 h 0 min", "3 days 2 h", "5 min 3 sec". */
export function approxDuration(seconds: number): string {
  const total = Math.trunc(seconds);
  const secs = total % 60;
  const allMins = Math.floor(total / 60);
  const mins = allMins % 60;
  const allHours = Math.floor(allMins / 60);
  const hours = allHours % 24;
  const days = Math.floor(allHours / 24);
  if (days === 1) return `1 day ${hours} h`;
  if (days) return `${days} days ${hours} h`;
  if (hours) return `${hours} h ${mins} min`;
  return `${mins} min ${secs} sec`;
}

// Django's timesince (django/utils/timesince.py), which naturaltime uses for a day and more.
const TIME_STRINGS = ['year', 'month', 'week', 'day', 'hour', 'minute'] as const;
const TIME_CHUNKS = [7 * 86_400, 86_400, 3_600, 60];
const MONTHS_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Django's avoid_wrapping: the parts of a duration are joined by no-break spaces. */
const NBSP = '\u00a0';

function timesince(d: Date, now: Date, depth = 2): string {
  const since = Math.floor((now.getTime() - d.getTime()) / 1000);
  if (since <= 0) return `0${NBSP}minutes`;
  // Calendar fields in UTC: Healthchecks reads last_ping from the database in UTC.
  let totalMonths = (now.getUTCFullYear() - d.getUTCFullYear()) * 12 + (now.getUTCMonth() - d.getUTCMonth());
  const timeOfDay = (x: Date) => x.getTime() - Date.UTC(x.getUTCFullYear(), x.getUTCMonth(), x.getUTCDate());
  if (d.getUTCDate() > now.getUTCDate() || (d.getUTCDate() === now.getUTCDate() && timeOfDay(d) > timeOfDay(now))) totalMonths -= 1;
  const years = Math.floor(totalMonths / 12);
  const months = totalMonths % 12;
  let pivot = d.getTime();
  if (years || months) {
    let pivotYear = d.getUTCFullYear() + years;
    let pivotMonth = d.getUTCMonth() + 1 + months;
    if (pivotMonth > 12) {
      pivotMonth -= 12;
      pivotYear += 1;
    }
    // Django keeps d's time of day but drops its microseconds.
    pivot = Date.UTC(pivotYear, pivotMonth - 1, Math.min(MONTHS_DAYS[pivotMonth - 1]!, d.getUTCDate()), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  }
  let remaining = (now.getTime() - pivot) / 1000;
  const partials = [years, months];
  for (const chunk of TIME_CHUNKS) {
    const count = Math.floor(remaining / chunk);
    partials.push(count);
    remaining -= chunk * count;
  }
  const first = partials.findIndex((v) => v !== 0);
  if (first === -1) return `0${NBSP}minutes`;
  const result: string[] = [];
  for (let i = first; i < TIME_STRINGS.length && result.length < depth; i++) {
    const value = partials[i]!;
    if (value === 0) break;
    result.push(`${value}${NBSP}${TIME_STRINGS[i]}${pluralize(value)}`);
  }
  return result.join(', ');
}

/** django.contrib.humanize's naturaltime for a past instant: "now", "5 minutes ago", "1 week, 5 days ago". */
export function naturalTime(value: Date, now: Date): string {
  const deltaMs = now.getTime() - value.getTime();
  if (deltaMs < 0) return naturalFuture(value, now);
  const days = Math.floor(deltaMs / DAY_MS);
  const seconds = Math.floor((deltaMs % DAY_MS) / 1000);
  if (days !== 0) return `${timesince(value, now)} ago`;
  if (seconds === 0) return 'now';
  if (seconds < 60) return seconds === 1 ? 'a second ago' : `${seconds}${NBSP}seconds ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'a minute ago' : `${minutes}${NBSP}minutes ago`;
  const hours = Math.floor(minutes / 60);
  return hours === 1 ? 'an hour ago' : `${hours}${NBSP}hours ago`;
}

function naturalFuture(value: Date, now: Date): string {
  const deltaMs = value.getTime() - now.getTime();
  const days = Math.floor(deltaMs / DAY_MS);
  const seconds = Math.floor((deltaMs % DAY_MS) / 1000);
  if (days !== 0) return `${timesince(now, value)} from now`;
  if (seconds === 0) return 'now';
  if (seconds < 60) return seconds === 1 ? 'a second from now' : `${seconds}${NBSP}seconds from now`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'a minute from now' : `${minutes}${NBSP}minutes from now`;
  const hours = Math.floor(minutes / 60);
  return hours === 1 ? 'an hour from now' : `${hours}${NBSP}hours from now`;
}

/** Django's escape (what autoescaping does to a value in an HTML template). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);

/** Healthchecks' mangle_link: escaped, with every "." broken by a span so mail clients make no link of a name. */
export const mangleLink = (s: string) => escapeHtml(s).replaceAll('.', '<span>.</span>');

/**
 * The asciitable tag: columns as wide as their widest line, a row of "=" under the header, a
 * cell with several lines spreads its row over as many lines.
 */
export function asciiTable(rows: string[][]): string {
  // Widths in code points, as Python's len() counts them.
  const width = (s: string) => [...s].length;
  const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - width(s)));
  const cells = rows.map((row) => row.map((cell) => cell.split('\n')));
  const widths = cells[0]!.map(() => 0);
  for (const row of cells) row.forEach((lines, i) => (widths[i] = Math.max(widths[i]!, ...lines.map(width))));
  const separator = `+-${widths.map((w) => '-'.repeat(w)).join('-+-')}-+`;
  const out = [separator];
  cells.forEach((row, r) => {
    const height = Math.max(...row.map((lines) => lines.length));
    for (let line = 0; line < height; line++) out.push(`| ${row.map((lines, i) => pad(lines[line] ?? '', widths[i]!)).join(' | ')} |`);
    out.push(r === 0 ? separator.replaceAll('-', '=') : separator);
  });
  return out.join('\n');
}
