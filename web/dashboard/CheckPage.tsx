// One check: its settings, status (live, from the dashboard's list), flips (pushed by the
// flips subscription) and, for read-write keys, its pings (pushed by the pings subscription).
import { useEffect, useState } from 'preact/hooks';
import { Status } from '../components/Status.tsx';
import { query, RequestError } from '../lib/graphql.ts';
import { seconds, when } from '../lib/format.ts';
import type { Live } from '../lib/live.ts';
import type { Session } from './session.ts';
import { CHECK_DETAIL, CHECK_PINGS, FLIPS, PINGS, type CheckDetail, type CheckSummary, type Flip, type Ping } from './operations.ts';
import { recordLabel } from './records.ts';

const KEEP = 50;

interface Props {
  session: Session;
  live: Live;
  uniqueKey: string;
  summary: CheckSummary | undefined;
  /** Whether the list the summary comes from has loaded (else "missing" means "not yet"). */
  loaded: boolean;
}

export function CheckPage({ session, live, uniqueKey, summary, loaded }: Props) {
  const [detail, setDetail] = useState<CheckDetail | null>(null);
  const [flips, setFlips] = useState<Flip[]>([]);
  const [pings, setPings] = useState<Ping[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stopPings = () => {};
    let active = true;
    const stopFlips = live.subscribe<{ flips: Flip & { check: { uniqueKey: string } | null } }>(FLIPS, {}, (data) => {
      if (data?.flips.check?.uniqueKey !== uniqueKey) return;
      const { check: _check, ...flip } = data.flips;
      setFlips((list) => [flip, ...list].slice(0, KEEP));
    });
    query<{ check: CheckDetail }>(CHECK_DETAIL, { uniqueKey }, session.key).then(
      async ({ check }) => {
        if (!active) return;
        setDetail(check);
        setFlips(check.flips.slice(0, KEEP));
        // Only read-write keys see the check's UUID, and only they may read its pings.
        if (check.uuid === null) return;
        stopPings = live.subscribe<{ pings: Ping }>(PINGS, { checkId: check.uuid }, (data) => {
          if (data) setPings((list) => [data.pings, ...(list ?? []).filter((p) => p.n !== data.pings.n)].slice(0, KEEP));
        });
        const { check: withPings } = await query<{ check: { pings: Ping[] } }>(CHECK_PINGS, { uniqueKey }, session.key);
        setPings((pushed) => mergePings(pushed ?? [], withPings.pings));
      },
      (err: unknown) => setError(err instanceof RequestError && err.code === 'NOT_FOUND' ? 'This check does not exist (any more).' : String(err)),
    );
    return () => {
      active = false;
      stopFlips();
      stopPings();
    };
  }, [uniqueKey, live]);

  if (error || (loaded && !summary && !detail)) return <Missing message={error ?? 'This check does not exist (any more).'} />;
  if (!detail || !summary) return <p>Loading…</p>;
  return (
    <article class="check" data-check={summary.name}>
      <p><a href="#">← All checks</a></p>
      <h1>{summary.name || '(unnamed)'} <Status status={summary.status} /></h1>
      {detail.desc && <p class="desc">{detail.desc}</p>}
      <dl class="facts">
        <dt>Schedule</dt>
        <dd>{detail.kind === 'CRON' ? `${detail.schedule} (${detail.tz})` : `every ${seconds(detail.timeout)}`}, grace {seconds(detail.grace)}</dd>
        <dt>Last ping</dt>
        <dd>{when(summary.lastPing, 'never')}</dd>
        <dt>Next ping</dt>
        <dd>{when(summary.nextPing)}</dd>
        <dt>Tags</dt>
        <dd>{summary.tags.join(' ') || '—'}</dd>
        {session.records !== '' && (
          <>
            <dt>Records</dt>
            <dd class="records">{summary.records?.length ? summary.records.map((r, i) => <span class="tag record" key={i}>{recordLabel(r)}</span>) : '—'}</dd>
          </>
        )}
      </dl>
      <h2>Status changes</h2>
      {flips.length ? (
        <table class="flips">
          <thead><tr><th>When</th><th>Change</th><th>Reason</th></tr></thead>
          <tbody>
            {flips.map((f, i) => (
              <tr key={i} data-flip={f.newStatus}>
                <td>{when(f.timestamp)}</td>
                <td>{f.oldStatus} → <strong>{f.newStatus}</strong></td>
                <td>{f.reason || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : <p class="hint">None yet.</p>}
      <h2>Pings</h2>
      {detail.uuid === null ? (
        <p class="hint">The ping log is shown to read-write keys only.</p>
      ) : pings === null ? <p>Loading…</p> : pings.length ? (
        <table class="pings">
          <thead><tr><th>#</th><th>Type</th><th>When</th><th>Source</th><th>Exit status</th></tr></thead>
          <tbody>
            {pings.map((p) => (
              <tr key={p.n} data-ping={p.type}>
                <td>{p.n}</td>
                <td>{p.type}</td>
                <td>{when(p.date)}</td>
                <td>{p.scheme} {p.method} {p.remoteAddr ?? ''} <span class="hint">{p.ua}</span></td>
                <td>{p.exitStatus ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : <p class="hint">None yet.</p>}
    </article>
  );
}

/** The pings read by the query, plus any the subscription delivered meanwhile; newest first. */
function mergePings(pushed: Ping[], read: Ping[]): Ping[] {
  const seen = new Set(pushed.map((p) => p.n));
  return [...pushed, ...read.filter((p) => !seen.has(p.n))].sort((a, b) => b.n - a.n).slice(0, KEEP);
}

function Missing({ message }: { message: string }) {
  return (
    <>
      <p><a href="#">← All checks</a></p>
      <p class="error" role="alert">{message}</p>
    </>
  );
}
