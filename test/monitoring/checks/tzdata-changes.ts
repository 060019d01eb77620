// Zones whose rules changed in tzdata releases after the goldens' (2025b), found when the suite
// moved to Node 24 (tzdata 2026c) and checked against Node 20's 2025c with Intl: Alberta keeps
// UTC−6 from November 2026 instead of falling back (America/Edmonton and its link
// America/Yellowknife), so does British Columbia at UTC−7 (America/Vancouver), Morocco stays on
// UTC+0 from late 2026 (Africa/Casablanca, Africa/El_Aaiun), and Moldova moves its transitions
// from 00:00 to 01:00 UTC (Europe/Chisinau and its link Europe/Tiraspol). The goldens hold the
// old rules' times, which a Node with the new rules rightly does not give: schedules follow the
// running Node's tzdata, as Healthchecks' follow Python's zoneinfo. A case is left out when its
// zone, or a zone its expression names (OnCalendar), is one of these and the running tzdata is
// past 2025c; on the goldens' tzdata or 2025c nothing is left out.
const CHANGED_AFTER_2025C = ['America/Edmonton', 'America/Yellowknife', 'America/Vancouver', 'Africa/Casablanca', 'Africa/El_Aaiun', 'Europe/Chisinau', 'Europe/Tiraspol'];

/** Whether a golden case's times predate rules the running Node's tzdata changed. */
export function predatesTzdataChange(goldenTzdata: string, zone: string, expr: string): boolean {
  const running = process.versions.tz ?? '';
  if (!(running > '2025c' && running > goldenTzdata)) return false;
  return CHANGED_AFTER_2025C.some((changed) => zone === changed || expr.includes(changed));
}
