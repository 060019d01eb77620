// Who is signed in through this browser: the page asks `viewer` (the HttpOnly cookie is not
// readable by scripts) and shows the person's projects, or the sign-in form. A failure on the
// way (the server restarting, a proxy's 502) is tried again; only a null viewer means signed out.
import { useEffect, useState } from 'preact/hooks';
import { query } from '../lib/graphql.ts';
import { backoff } from '../lib/backoff.ts';
import { resetAddress } from '../lib/route.ts';
import { ProjectApp } from '../project/ProjectApp.tsx';
import { SIGN_OUT, VIEWER, type ViewerData } from './operations.ts';
import { SignIn } from './SignIn.tsx';
import type { AccountState } from './state.ts';

/** Reads the viewer, retrying until the server answers. */
function useViewer() {
  const [viewer, setViewer] = useState<ViewerData | null | undefined>(undefined);
  const [trouble, setTrouble] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (attempt: number) =>
      query(VIEWER).then(
        (data) => {
          if (cancelled) return;
          setTrouble(null);
          setViewer(data.viewer);
        },
        (err: unknown) => {
          if (cancelled) return;
          setTrouble(err instanceof Error ? err.message : String(err));
          retry = setTimeout(() => load(attempt + 1), backoff(attempt, 10_000));
        },
      );
    void load(0);
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [generation]);
  const refresh = async () => {
    const data = await query(VIEWER);
    setViewer(data.viewer);
    return data.viewer;
  };
  return { viewer, trouble, refresh, reload: () => setGeneration((g) => g + 1), setViewer };
}

export function Account({ onUseKey }: { onUseKey: () => void }) {
  const { viewer, trouble, refresh, reload, setViewer } = useViewer();
  if (viewer === undefined) {
    return (
      <main class="narrow">
        <p>Loading…</p>
        {trouble && <p class="error" role="alert">Could not reach the server ({trouble}); trying again.</p>}
      </main>
    );
  }
  if (viewer === null) return <SignIn onSignedIn={reload} onUseKey={onUseKey} />;
  const signOut = async () => {
    await query(SIGN_OUT);
    resetAddress();
    setViewer(null);
  };
  // Keyed by the person: another sign-in in this tab starts from a clean slate.
  const account: AccountState = { viewer, refresh, signOut };
  return <ProjectApp key={viewer.username} account={account} />;
}
