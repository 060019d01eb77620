// One change on the settings screen: busy while it runs, then the server's refusal or a line
// saying what changed. A refusal for who the caller is (a role changed, a membership removed,
// a session ended elsewhere) also tells the app, which reads the viewer again.
import { useState } from 'preact/hooks';
import { messageOf, RequestError } from '../../lib/graphql.ts';

const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND']);

export function useChange(onRefused: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  /** Runs `what`; says `message` when it succeeds. Resolves true when it did. */
  const run = async (what: () => Promise<unknown>, message: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await what();
      setDone(message);
      return true;
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof RequestError && err.code && REFUSALS.has(err.code)) onRefused();
      return false;
    } finally {
      setBusy(false);
    }
  };
  const messages = (
    <>
      {error && <p class="error" role="alert">{error}</p>}
      {done && <p class="notice" role="status">{done}</p>}
    </>
  );
  return { busy, run, messages };
}
