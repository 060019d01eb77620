// Email reports and nags (Healthchecks' profile settings): a summary of every project's checks
// each month, week or day, and a reminder every hour or day while a check is down, bounded in the
// person's time zone. Unsubscribe links in the mail turn both off without signing in.
import { useEffect, useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import { Time } from '../lib/format.ts';
import { REPORT_SETTINGS, SET_REPORT_SETTINGS, type ReportSettingsData } from './operations.ts';

const REPORTS = [
  ['OFF', 'No reports'],
  ['MONTHLY', 'Monthly, on the 1st'],
  ['WEEKLY', 'Weekly, on Mondays'],
  ['DAILY', 'Daily'],
] as const;
const NAGS = [
  ['OFF', 'No reminders'],
  ['HOURLY', 'Hourly'],
  ['DAILY', 'Daily'],
] as const;

function zones(current: string): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older browser: the current zone only.
  }
  return all.includes(current) ? all : [current, ...all];
}

export function ReportSettings() {
  const [settings, setSettings] = useState<ReportSettingsData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The choices as shown (Preact sets a <select>'s value, not a default, after its options).
  const [choice, setChoice] = useState<Pick<ReportSettingsData, 'reports' | 'nagPeriod' | 'timeZone'> | null>(null);
  const show = (data: ReportSettingsData) => {
    setSettings(data);
    setChoice({ reports: data.reports, nagPeriod: data.nagPeriod, timeZone: data.timeZone });
  };
  useEffect(() => {
    query(REPORT_SETTINGS).then(
      (data) => data.viewer && show(data.viewer.reportSettings),
      (err: unknown) => setError(messageOf(err)),
    );
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!choice) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const saved = await query(SET_REPORT_SETTINGS, choice);
      show(saved.setReportSettings);
      setDone('Saved.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="reports-heading">
      <h2 id="reports-heading">Email reports</h2>
      {!settings || !choice ? (
        error ? <p class="error" role="alert">{error}</p> : <p>Loading…</p>
      ) : (
        <form class="card" aria-label="Email reports" onSubmit={submit}>
          <label for="report-period">Summary of my checks</label>
          <select id="report-period" value={choice.reports} onChange={(e) => setChoice({ ...choice, reports: (e.currentTarget as HTMLSelectElement).value as ReportSettingsData['reports'] })}>
            {REPORTS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
          <label for="nag-period">While a check is down, remind me</label>
          <select id="nag-period" value={choice.nagPeriod} onChange={(e) => setChoice({ ...choice, nagPeriod: (e.currentTarget as HTMLSelectElement).value as ReportSettingsData['nagPeriod'] })}>
            {NAGS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
          <label for="report-zone">Time zone</label>
          <select id="report-zone" value={choice.timeZone} onChange={(e) => setChoice({ ...choice, timeZone: (e.currentTarget as HTMLSelectElement).value })}>
            {zones(choice.timeZone).map((z) => <option key={z} value={z}>{z}</option>)}
          </select>
          {settings.nextReportAt && <p class="hint">Next report: <Time iso={settings.nextReportAt} /></p>}
          <button type="submit" disabled={busy}>Save report settings</button>
          {error && <p class="error" role="alert">{error}</p>}
          {done && <p class="notice" role="status">{done}</p>}
        </form>
      )}
    </section>
  );
}
