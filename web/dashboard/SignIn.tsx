import { useState } from 'preact/hooks';
import { RequestError } from '../lib/graphql.ts';

export function SignIn({ onSignIn }: { onSignIn: (key: string) => Promise<void> }) {
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
      <h1>Cron &amp; Campus Gateway</h1>
      <form class="card" onSubmit={submit}>
        <label for="key">Project API key</label>
        <input id="key" name="key" type="password" autocomplete="off" spellcheck={false} placeholder="hcw_… or hcr_…" required />
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        {error && <p class="error" role="alert">{error}</p>}
        <p class="hint">Read-only keys (hcr_…) work too. The key stays in this tab (sessionStorage) and is sent only to this server, in a header. <a href="/graphql">GraphiQL</a></p>
      </form>
    </main>
  );
}
