// Date → ISO 8601 text, as Date.prototype.toISOString writes it, about three times faster: V8's
// toISOString goes through its date cache for every call, and a dashboard response holds some
// 1,300 dates (GraphQL's DateTime scalar; docs/performance.md, "3. GraphQL").

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on (and before 1970) toISOString's own format applies. */
const YEAR_10000 = 253_402_300_800_000;

/** The same text as `date.toISOString()` (which also throws for an invalid date). */
export function isoString(date: Date): string {
  const t = date.getTime();
  if (!(t >= 0 && t < YEAR_10000)) return date.toISOString();
  const days = Math.floor(t / DAY);
  let ms = t - days * DAY;
  // Days since 1970-01-01 → year, month, day (Howard Hinnant's civil_from_days).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  return `${String(year).padStart(4, '0')}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[ms]}Z`;
}
