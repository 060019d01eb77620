// The check's ping log, newest first, pushed live: each ping's kind, time, duration (success and
// failure after a start), exit status, where it came from and its body (opened on demand); and
// a filter by kind.
import { useState } from 'preact/hooks';
import { duration, Time } from '../lib/format.ts';
import type { Ping } from './operations.ts';

export const PING_KINDS: Record<string, string> = { success: 'success', start: 'started', fail: 'failure', log: 'log', ign: 'ignored' };

export function PingLog({ pings, total, limit }: { pings: Ping[]; total: number; limit: number }) {
  const [kind, setKind] = useState('');
  const shown = kind ? pings.filter((p) => p.type === kind) : pings;
  return (
    <>
      <div class="log-controls">
        <label>
          Show
          <select value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value)} aria-label="Show pings of kind">
            <option value="">every kind</option>
            {Object.entries(PING_KINDS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
        <span class="hint" role="status">
          {shown.length} of {pings.length} shown{total > pings.length ? ` (the newest ${pings.length} of ${total}; the log keeps ${limit})` : ''}.
        </span>
      </div>
      {shown.length === 0 ? (
        <p class="hint">{pings.length ? 'No ping of this kind.' : 'None yet.'}</p>
      ) : (
        <table class="pings">
          <thead><tr><th>#</th><th>Kind</th><th>When</th><th>Duration</th><th>Exit status</th><th>Source</th><th>Body</th></tr></thead>
          <tbody>
            {shown.map((p) => (
              <tr key={p.n} data-ping={p.type} class={`ping-${p.type}`}>
                <td data-label="#">{p.n}</td>
                <td data-label="Kind"><span class={`ping-kind kind-${p.type}`}>{PING_KINDS[p.type] ?? p.type}</span></td>
                <td data-label="When"><Time iso={p.date} /></td>
                <td data-label="Duration">{p.duration === null ? '—' : duration(p.duration)}</td>
                <td data-label="Exit status">{p.exitStatus ?? '—'}</td>
                <td data-label="Source" class="source">
                  {p.scheme} {p.method} {p.remoteAddr ?? ''}
                  {p.ua && <span class="hint ua">{p.ua}</span>}
                </td>
                <td data-label="Body">
                  {p.body ? (
                    <details class="ping-body">
                      <summary>{p.body.length} {p.body.length === 1 ? 'character' : 'characters'}<span class="visually-hidden"> of ping {p.n}</span></summary>
                      <pre tabIndex={0}>{p.body}</pre>
                    </details>
                  ) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
