// The signed-in dashboard: the project's checks, kept current by the checkChanged
// subscription, and a page per check (#/checks/<uniqueKey>, a client-side route).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { query, RequestError } from '../lib/graphql.ts';
import { forgetKey, storedKey, storeKey } from '../lib/key.ts';
import { connectLive, type LiveState } from '../lib/live.ts';
import { backoff } from '../lib/backoff.ts';
import { LiveBadge } from '../components/Status.tsx';
import { CHECK_CHANGED, CHECKS_PAGE, type CheckSummary } from './operations.ts';
import { openSession, type Session } from './session.ts';
import { ChecksTable } from './ChecksTable.tsx';
import { CheckPage } from './CheckPage.tsx';
import { SignIn } from './SignIn.tsx';

export function Dashboard() {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(() => storedKey() !== null);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    // Only the server refusing the key signs the user out; a failure on the way (the server
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
      <SignIn
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
  return <SignedIn session={session} onSignOut={signOut} />;
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

async function allChecks(session: Session): Promise<CheckSummary[]> {
  type Page = { project: { checks: { nodes: CheckSummary[]; hasNextPage: boolean; endCursor: string | null } } };
  const checks: CheckSummary[] = [];
  let after: string | null = null;
  do {
    const page: Page['project']['checks'] = (await query<Page>(CHECKS_PAGE(session.records), { after }, session.key)).project.checks;
    checks.push(...page.nodes);
    after = page.hasNextPage ? page.endCursor : null;
  } while (after);
  return checks;
}

function SignedIn({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const live = useMemo(() => connectLive(session.key), [session.key]);
  const [liveState, setLiveState] = useState<LiveState>(live.state);
  const [checks, setChecks] = useState<CheckSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const hash = useHash();

  useEffect(() => {
    // A failed read is tried again (with backoff) unless the server refused the key.
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const reload = (): Promise<void> => {
      clearTimeout(retry);
      return allChecks(session).then(
        (list) => {
          failures = 0;
          setChecks(list);
          setError(null);
        },
        (err: unknown) => {
          setError(err instanceof RequestError ? err.message : String(err));
          if (err instanceof RequestError && err.code === 'UNAUTHENTICATED') return;
          retry = setTimeout(() => void reload(), backoff(failures++, 10_000));
        },
      );
    };
    const stopChanges = live.subscribe<{ checkChanged: { change: string; check: CheckSummary } }>(CHECK_CHANGED(session.records), {}, (data) => {
      if (!data) return;
      const { change, check } = data.checkChanged;
      setChecks((list) => {
        if (!list) return list;
        if (change === 'DELETED') return list.filter((c) => c.uniqueKey !== check.uniqueKey);
        const at = list.findIndex((c) => c.uniqueKey === check.uniqueKey);
        return at < 0 ? [...list, check] : list.map((c, i) => (i === at ? check : c));
      });
    });
    // After a reconnection, re-read: changes made while disconnected were not pushed.
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      setLiveState(state);
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) void reload();
      connectedBefore = true;
    });
    void reload();
    return () => {
      clearTimeout(retry);
      stopChanges();
      stopState();
      live.close();
    };
  }, [live]);

  const route = /^#\/checks\/([0-9a-f]+)$/.exec(hash);
  return (
    <>
      <header class="bar">
        <a href="#" class="brand">{session.projectName}</a>
        <LiveBadge state={liveState} />
        <button type="button" class="link" onClick={onSignOut}>Sign out</button>
      </header>
      <main>
        {error && <p class="error" role="alert">{error}</p>}
        {route ? (
          <CheckPage session={session} live={live} uniqueKey={route[1]!} summary={checks?.find((c) => c.uniqueKey === route[1])} loaded={checks !== null} />
        ) : checks === null ? (
          <p>Loading…</p>
        ) : (
          <ChecksTable checks={checks} showRecords={session.records !== ''} />
        )}
      </main>
    </>
  );
}
