// Where the person is signed in: browsers (this one marked) and campus API tokens. One can be
// ended, or every other at once.
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { messageOf, query } from '../lib/graphql.ts';
import { END_SESSION, SESSIONS, SIGN_OUT_EVERYWHERE, type SessionRow } from './operations.ts';

export function Sessions({ onSignedOut }: { onSignedOut: () => Promise<void> }) {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const load = async () => {
    try {
      setSessions((await query(SESSIONS)).viewer?.sessions ?? []);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), []);
  const act = async (what: () => Promise<string | null>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await what());
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const end = (s: SessionRow) =>
    act(async () => {
      await query(END_SESSION, { id: s.id });
      if (s.current) await onSignedOut();
      return 'The session was ended.';
    });
  const everywhere = () =>
    act(async () => {
      const { signOutEverywhere: ended } = await query(SIGN_OUT_EVERYWHERE);
      return ended === 1 ? 'Signed out of 1 other session.' : `Signed out of ${ended} other sessions.`;
    });
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {done && <p class="notice" role="status">{done}</p>}
      {sessions === null ? <p>Loading…</p> : (
        <table class="sessions">
          <thead><tr><th>Kind</th><th>Device</th><th>Signed in</th><th>Last seen</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-session={s.id} data-current={s.current ? 'true' : undefined}>
                <td>{s.kind === 'BROWSER' ? 'Browser' : 'API token'}</td>
                <td>{s.userAgent ?? '—'} <span class="hint">{s.address ?? ''}</span>{s.current && <strong> (this browser)</strong>}</td>
                <td>{when(s.created)}</td>
                <td>{when(s.lastRequest)}</td>
                <td class="actions">
                  <button type="button" class="secondary" aria-label={s.current ? 'End this browser’s session' : `End session ${s.id}`} onClick={() => void end(s)}>End</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <ConfirmButton label="Sign out everywhere" question="End every other session (other browsers and API tokens)?" onConfirm={everywhere} />
        <span class="hint"> Every other browser and API token; this one stays signed in.</span>
      </p>
    </section>
  );
}
