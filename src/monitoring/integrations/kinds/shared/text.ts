// Pieces of text every message kind shares, after Healthchecks' templates.
import type { Check, Ping } from '../../../../generated/prisma/client.ts';

/** Healthchecks' name_then_code(): the name, or the UUID of an unnamed check. */
export function nameThenCode(check: Pick<Check, 'name' | 'code'>): string {
  return check.name || check.code;
}

const UNITS: Array<[string, number]> = [
  ['week', 604800],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** Healthchecks' format_duration: "1 day", "2 hours 30 minutes" (weeks only when whole). */
export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  let remaining = seconds;
  for (const [name, size] of UNITS) {
    if (name === 'week' && seconds % size !== 0) continue;
    const n = Math.floor(remaining / size);
    remaining -= n * size;
    if (n === 1) parts.push(`1 ${name}`);
    else if (n > 1) parts.push(`${n} ${name}s`);
  }
  return parts.join(' ') || `${seconds} seconds`;
}

const KIND_LABELS: Record<string, string> = { success: 'Success', start: 'Started', fail: 'Failure', log: 'Log', ign: 'Ignored' };

/** "Success, 2026-01-05 10:00 UTC" (Healthchecks: the kind and the time of the ping). */
export function describePing(ping: Pick<Ping, 'kind' | 'createdAt' | 'exitStatus'> | null): string {
  if (!ping) return 'Never';
  const kind = ping.kind === 'fail' && ping.exitStatus ? `Exit status ${ping.exitStatus}` : (KIND_LABELS[ping.kind] ?? ping.kind);
  return `${kind}, ${ping.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function pingBodyText(ping: Pick<Ping, 'body'> | null, maxlen?: number): string | null {
  if (!ping?.body || ping.body.length === 0) return null;
  const text = Buffer.from(ping.body).toString('utf8');
  return maxlen && text.length > maxlen ? `${text.slice(0, maxlen)}\n[truncated]` : text;
}

export function tagList(tags: string): string[] {
  return tags.split(' ').filter(Boolean);
}

/** Where a message links for the check: its Management API URL (the gateway has no dashboard yet). */
export function checkUrl(siteRoot: string, check: Pick<Check, 'code'>): string {
  return `${siteRoot}/api/v3/checks/${check.code}`;
}
