// Dates as the reader's clock shows them. Absolute, not "3 minutes ago": a relative time
// would need a timer to stay true, and the server's clock is the one that counts.
import { h, type ComponentChild } from 'preact';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** The exact instant with the reader's time zone named, for a hover (title). */
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

export const when = (iso: string | null | undefined, never = '—') => (iso ? dateTime.format(new Date(iso)) : never);

/**
 * A <time> in the reader's time zone, the exact instant (with its zone, and in UTC) on hover;
 * `never` (text) when there is no time.
 */
export function Time({ iso, never = '—' }: { iso: string | null | undefined; never?: string }): ComponentChild {
  if (!iso) return never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return h('time', { dateTime: date.toISOString(), title: `${exact.format(date)} (${date.toISOString().replace('.000Z', 'Z')})` }, dateTime.format(date));
}

export function seconds(total: number | null | undefined): string {
  if (total === null || total === undefined) return '—';
  const units: Array<[number, string]> = [[86400, 'd'], [3600, 'h'], [60, 'min']];
  for (const [size, unit] of units) if (total >= size && total % size === 0) return `${total / size} ${unit}`;
  return `${total} s`;
}

/** A length of time for reading: "2 h 5 min", "45 s", "3 d 4 h" (the two largest units). */
export function duration(total: number | null | undefined): string {
  if (total === null || total === undefined) return '—';
  if (total < 60) return `${Math.round(total * 100) / 100} s`;
  const parts: string[] = [];
  let rest = Math.round(total);
  for (const [size, unit] of [[86400, 'd'], [3600, 'h'], [60, 'min'], [1, 's']] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}
