// The wall display: one project's checks behind an API key kept in this tab (sessionStorage).
// A reload restores it; only the server refusing the key forgets it.
import { useEffect, useState } from 'preact/hooks';
import { RequestError } from '../lib/graphql.ts';
import { forgetKey, storedKey, storeKey } from '../lib/key.ts';
import { backoff } from '../lib/backoff.ts';
import { useLive, useLiveState } from '../lib/use-live.ts';
import { LiveBadge } from '../components/Status.tsx';
import { openSession, type Session } from './session.ts';
import { Checks } from '../checks/Checks.tsx';
import { KeySignIn } from './KeySignIn.tsx';

/** Whether this tab holds a key (then it opens as a display, not with the account sign-in). */
export const hasStoredKey = () => storedKey() !== null;

export function KeyDisplay({ onUseAccount }: { onUseAccount: () => void }) {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(() => storedKey() !== null);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    // Only the server refusing the key signs the display out; a failure on the way (the server
    // restarting, a proxy's 502, a dropped connection) is tried again, the key kept.
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const restore = (attempt: number) =>
      openSession(key).then(
        (opened) => {
          if (cancelled) return;
          setSession(opened);
          setRestoring(false);
        },
        (err: unknown) => {
          if (cancelled) return;
          if (err instanceof RequestError && err.code === 'UNAUTHENTICATED') {
            forgetKey();
            setRestoring(false);
            return;
          }
          setRestoreError(err instanceof Error ? err.message : String(err));
          retry = setTimeout(() => restore(attempt + 1), backoff(attempt, 10_000));
        },
      );
    void restore(0);
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, []);
  if (restoring) {
    return (
      <main class="narrow">
        <p>Loading…</p>
        {restoreError && <p class="error" role="alert">Could not reach the server ({restoreError}); trying again.</p>}
      </main>
    );
  }
  if (!session) {
    return (
      <KeySignIn
        onUseAccount={onUseAccount}
        onSignIn={async (key) => {
          const opened = await openSession(key);
          storeKey(key);
          setSession(opened);
        }}
      />
    );
  }
  const signOut = () => {
    forgetKey();
    location.hash = '';
    setSession(null);
  };
  return <Display session={session} onSignOut={signOut} />;
}

function Display({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const live = useLive(session.key);
  const liveState = useLiveState(live);
  return (
    <>
      <header class="bar">
        <a href="#" class="brand">{session.projectName}</a>
        <span class="hint">{session.role === 'READONLY' ? 'read-only key' : 'read-write key'}</span>
        <LiveBadge state={liveState} />
        <button type="button" class="link" onClick={onSignOut}>Sign out</button>
      </header>
      <main>
        <Checks session={session} live={live} display />
      </main>
    </>
  );
}
