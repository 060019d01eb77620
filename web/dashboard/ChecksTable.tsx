import { Status } from '../components/Status.tsx';
import { when } from '../lib/format.ts';
import type { CheckSummary } from './operations.ts';
import { recordLabel } from './records.ts';

export function ChecksTable({ checks, showRecords }: { checks: CheckSummary[]; showRecords: boolean }) {
  if (!checks.length) {
    return <p class="card">No checks yet. Create one with the API (<code>POST /api/v3/checks/</code>) or the <code>createCheck</code> mutation; it appears here at once.</p>;
  }
  return (
    <table class="checks">
      <thead>
        <tr>
          <th>Name</th>
          <th>Status</th>
          <th>Last ping</th>
          <th>Next ping</th>
          <th>Tags</th>
          {showRecords && <th>Records</th>}
        </tr>
      </thead>
      <tbody>
        {checks.map((c) => (
          <tr key={c.uniqueKey} data-check={c.name}>
            <td><a href={`#/checks/${c.uniqueKey}`}>{c.name || '(unnamed)'}</a></td>
            <td><Status status={c.status} /></td>
            <td>{when(c.lastPing, 'never')}</td>
            <td>{when(c.nextPing)}</td>
            <td>{c.tags.map((t) => <span class="tag" key={t}>{t}</span>)}</td>
            {showRecords && <td class="records">{(c.records ?? []).map((r, i) => <span class="tag record" key={i}>{recordLabel(r)}</span>)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
