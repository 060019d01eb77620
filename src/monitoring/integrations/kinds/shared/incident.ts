// What the incident and push kinds share (pagerduty, opsgenie, victorops, pagertree, spike,
// ntfy), after Healthchecks' transports and templates: the flip's reason in words, the check's
// unique key (their dedup key: the UUID is the ping secret and never leaves), the last ping as
// "Success, 10 minutes ago", Django's escaping where a template escapes, and one JSON request.
import type { Check, Ping } from '../../../../generated/prisma/client.ts';
import { escapeHtml, naturalTime } from '../../../reports/format.ts';
import { baseUrlFor, httpAttempt } from './http.ts';
import { formatDuration, tagList } from './text.ts';
import type { Delivery } from './transport.ts';

/**
 * The flip's reason: "timeout", "fail" or "". A test is Healthchecks' dummy flip (down, "timeout");
 * a reminder repeats a down flip whose reason it does not carry.
 */
export function reasonOf(d: Delivery): string {
  if (d.flip) return d.flip.reason;
  return d.reason === 'test' && d.status === 'down' ? 'timeout' : '';
}

/** Healthchecks' Flip.reason_long. */
export function reasonLong(reason: string): string | null {
  if (reason === 'timeout') return 'success signal did not arrive on time, grace time passed';
  if (reason === 'fail') return 'received a failure signal';
  return null;
}

/** The templates' `{% if flip.reason %} ({{ flip.reason_long }}){% endif %}`. */
export function reasonSuffix(d: Delivery): string {
  const long = reasonLong(reasonOf(d));
  return long ? ` (${long})` : '';
}

/** Check.unique_key: what incident tools dedup on. */
export function uniqueKeyOf(d: Delivery): string {
  return d.check.uniqueKey;
}

/**
 * The check's page in the management app, by unique key (Healthchecks' cloaked_url and
 * details_url both lead to it): a link an incident tool may show without handing out the UUID.
 */
export function checkPageUrl(d: Delivery, check: Pick<Delivery['check'], 'projectId' | 'uniqueKey'> = d.check): string {
  return `${d.settings.siteRoot}/?project=${encodeURIComponent(check.projectId)}#/checks/${check.uniqueKey}`;
}

/**
 * The facts Healthchecks' HTML templates list one a line (pushover_message.html,
 * telegram_message.html): project, tags, period or schedule and zone, total pings, last ping.
 * Returns the lines and the last ping (the caller may add its body).
 */
export async function htmlCheckFacts(d: Delivery) {
  const check = d.check;
  const lines: string[] = [];
  if (check.project.name) lines.push(`<b>Project:</b> ${djangoEscape(check.project.name)}`);
  const tags = tagList(check.tags);
  if (tags.length) lines.push(`<b>Tags:</b> ${tags.map(djangoEscape).join(', ')}`);
  if (check.kind === 'simple') lines.push(`<b>Period:</b> ${formatDuration(check.timeout)}`);
  else lines.push(`<b>Schedule:</b> <code>${djangoEscape(check.schedule)}</code>`, `<b>Time Zone:</b> ${djangoEscape(check.tz)}`);
  const ping = await d.lastPing();
  lines.push(`<b>Total Pings:</b> ${ping ? ping.n : 0}`);
  lines.push(ping ? `<b>Last Ping:</b> ${kindAndWhen(d, ping)}` : '<b>Last Ping:</b> Never');
  return { lines, ping };
}

/** Healthchecks' Ping.get_kind_display. */
export function pingKindDisplay(ping: Pick<Ping, 'kind' | 'exitStatus'>): string {
  if (ping.kind === 'ign') return 'Ignored';
  if (ping.kind === 'fail') return ping.exitStatus ? `Exit status ${ping.exitStatus}` : 'Failure';
  if (ping.kind === 'start') return 'Start';
  if (ping.kind === 'log') return 'Log';
  return 'Success';
}

/**
 * humanize's naturaltime with plain spaces (Healthchecks' tmpl() and formatted_kind_created
 * replace the no-break ones), counted to the event (the flip, reminder or test), not the
 * attempt: a retried alert says what was true when the check went down.
 */
/**
 * Healthchecks' block about the project's other checks, after an empty line: more than ten
 * down are counted, fewer are listed (`item` words one, given its last ping's "… ago" or
 * "never"), none down is "All the other checks are up."; nothing when the project has no
 * other checks.
 */
export async function otherDownLines(d: Delivery, item: (c: Check, lastPing: string) => string): Promise<string[]> {
  const others = await d.otherDownChecks();
  if (others === null) return [];
  const still = d.status === 'down' ? 'also' : 'still';
  if (others.length > 10) return ['', `${others.length} other checks are ${still} down.`];
  if (others.length === 0) return ['', 'All the other checks are up.'];
  return ['', `The following checks are ${still} down:`, ...others.map((c) => item(c, c.lastPing ? agoAtEvent(d, c.lastPing) : 'never'))];
}

export function agoAtEvent(d: Delivery, when: Date): string {
  return naturalTime(when, d.at).replaceAll('\u00a0', ' ');
}

/** Ping.formatted_kind_created: "Success, 10 minutes ago". */
export function kindAndWhen(d: Delivery, ping: Pick<Ping, 'kind' | 'exitStatus' | 'createdAt'>): string {
  return `${pingKindDisplay(ping)}, ${agoAtEvent(d, ping.createdAt)}`;
}

/** Django's autoescape, where Healthchecks' template prints a value without `|safe`. */
export const djangoEscape = escapeHtml;

export interface JsonPost {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Statuses retrying cannot help (a removed endpoint): the notification fails at once. */
  permanentStatuses?: number[];
  failure?(status: number, body: string): string;
}

/** POSTs a JSON document for the delivery's kind: its base URL, the private-address rule, its id. */
export async function postJson(d: Delivery, p: JsonPost): Promise<void> {
  await httpAttempt({
    method: 'POST',
    url: p.url,
    headers: { 'Content-Type': 'application/json', ...p.headers },
    body: JSON.stringify(p.body),
    timeoutMs: d.settings.timeoutMs,
    idempotencyKey: d.id,
    permanentStatuses: p.permanentStatuses ?? [],
    allowPrivateIps: d.settings.allowPrivateIps,
    baseUrl: baseUrlFor(d),
    failure: p.failure,
  });
}
