// Dates as the reader's clock shows them. Absolute, not "3 minutes ago": a relative time
// would need a timer to stay true, and the server's clock is the one that counts.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export const when = (iso: string | null | undefined, never = '—') => (iso ? dateTime.format(new Date(iso)) : never);

export function seconds(total: number | null | undefined): string {
  if (total === null || total === undefined) return '—';
  const units: Array<[number, string]> = [[86400, 'd'], [3600, 'h'], [60, 'min']];
  for (const [size, unit] of units) if (total >= size && total % size === 0) return `${total / size} ${unit}`;
  return `${total} s`;
}
