// Wall-clock arithmetic in IANA time zones with nothing but Intl: the offset at an instant,
// and the instants a local wall-clock time maps to (none in a DST gap, two in an overlap).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The local wall-clock time at `instant`, expressed as if it were UTC milliseconds. */
export function wallClockAt(instant: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall + (instant % 1000 + 1000) % 1000;
}

export function offsetAt(instant: number, tz: string): number {
  return wallClockAt(instant, tz) - instant;
}

const DAY = 86_400_000;

/** Every instant whose local time in `tz` is `wall`, earliest first. */
export function instantsOf(wall: number, tz: string): number[] {
  const offsets = new Set([offsetAt(wall - DAY, tz), offsetAt(wall, tz), offsetAt(wall + DAY, tz)]);
  return [...offsets]
    .map((o) => wall - o)
    .filter((instant) => wallClockAt(instant, tz) === wall)
    .sort((a, b) => a - b);
}
