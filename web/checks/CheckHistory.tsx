// The check's status changes (flips), pushed live, and its downtime in each of the last months.
import { duration, Time } from '../lib/format.ts';
import type { Flip, MonthDowntime } from './operations.ts';

const REASONS: Record<string, string> = { fail: 'a failure ping', timeout: 'no ping in time' };
const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function Flips({ flips }: { flips: Flip[] }) {
  if (!flips.length) return <p class="hint">None yet.</p>;
  return (
    <table class="flips">
      <thead><tr><th>When</th><th>Change</th><th>Why</th></tr></thead>
      <tbody>
        {flips.map((f, i) => (
          <tr key={`${f.timestamp}-${i}`} data-flip={f.newStatus}>
            <td data-label="When"><Time iso={f.timestamp} /></td>
            <td data-label="Change">{f.oldStatus} → <strong>{f.newStatus}</strong></td>
            <td data-label="Why">{REASONS[f.reason] ?? (f.reason || '—')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Downtimes({ months }: { months: MonthDowntime[] }) {
  return (
    <table class="downtimes">
      <thead><tr><th>Month</th><th>Down for</th><th>Outages</th></tr></thead>
      <tbody>
        {months.map((m) => (
          <tr key={m.month} data-month={m.month.slice(0, 7)}>
            <td data-label="Month">{monthName.format(new Date(m.month))}</td>
            <td data-label="Down for">{m.downtime || m.outages ? duration(m.downtime) : 'none'}</td>
            <td data-label="Outages">{m.outages}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
