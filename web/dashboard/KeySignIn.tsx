// The secondary way in: an API key pasted in, for a wall display that shows one project's
// checks. A read-only key (hcr_…) is the one to use there; a read-write key works too.
import { useState } from 'preact/hooks';
import { RequestError } from '../lib/graphql.ts';

export function KeySignIn({ onSignIn, onUseAccount }: { onSignIn: (key: string) => Promise<void>; onUseAccount: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = String(new FormData(event.currentTarget as HTMLFormElement).get('key') ?? '').trim();
    if (!key) return setError('Enter an API key.');
    setBusy(true);
    setError(null);
    try {
      await onSignIn(key);
    } catch (err) {
      setError(err instanceof RequestError && err.code === 'UNAUTHENTICATED' ? 'That key was not accepted.' : String((err as Error).message ?? err));
      setBusy(false);
    }
  };
  return (
    <main class="narrow">
      <h1>Read-only display</h1>
      <form class="card" onSubmit={submit}>
        <label for="key">Project API key</label>
        <input id="key" name="key" type="password" autocomplete="off" spellcheck={false} placeholder="hcr_… or hcw_…" required />
        <button type="submit" disabled={busy}>{busy ? 'Opening…' : 'Show the checks'}</button>
        {error && <p class="error" role="alert">{error}</p>}
        <p class="hint">For a wall display: a read-only key (hcr_…) shows one project's checks, live. The key stays in this tab (sessionStorage) and is sent only to this server, in a header. <a href="/graphql">GraphiQL</a></p>
      </form>
      <p><button type="button" class="link" onClick={onUseAccount}>← Sign in with an account</button></p>
    </main>
  );
}
