// Creating an account from the sign-in page, where the server allows it (REGISTRATION_OPEN,
// which the page asks as signUpOpen): nothing shows where it does not. The account signs in once
// its address is confirmed by the mailed link (/verify/<token>, LinkPages.tsx). The server's own
// refusals (a taken username, a short password, FORBIDDEN) are shown as it words them.
import { useEffect, useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import { SIGN_UP, SIGN_UP_OPEN } from './operations.ts';

export function SignUp() {
  const [offered, setOffered] = useState(false);
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Not knowing (an older server, a network hiccup) is as closed: signUp would say FORBIDDEN anyway.
    query(SIGN_UP_OPEN).then(({ signUpOpen }) => setOffered(signUpOpen), () => setOffered(false));
  }, []);
  if (!offered) return null;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    try {
      await query(SIGN_UP, { username: String(form.get('username') ?? '').trim(), email: String(form.get('email') ?? '').trim(), password: String(form.get('password') ?? '') });
      // The form (and the password with it) goes; the server says the same for an address that has an account.
      setSent(true);
      setOpen(false);
    } catch (err) {
      setError(messageOf(err));
    }
    setBusy(false);
  };
  return (
    <>
      {sent && <p class="notice" role="status">Check your mail: follow the link we sent to confirm your address, then sign in.</p>}
      {open ? (
        <form class="card" onSubmit={submit} aria-label="Create an account">
          <h2>Create an account</h2>
          <label for="sign-up-username">Username</label>
          <input id="sign-up-username" name="username" required autocomplete="username" spellcheck={false} autocapitalize="none" />
          <label for="sign-up-email">Email</label>
          <input id="sign-up-email" name="email" type="email" required autocomplete="email" spellcheck={false} />
          <label for="sign-up-password">Password</label>
          <input id="sign-up-password" name="password" type="password" required autocomplete="new-password" />
          <button type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>{' '}
          <button type="button" class="link" onClick={() => { setOpen(false); setError(null); }}>Cancel</button>
          {error && <p class="error" role="alert">{error}</p>}
        </form>
      ) : (
        <p class="secondary">
          <button type="button" class="secondary" onClick={() => { setOpen(true); setSent(false); }}>Create an account</button>
        </p>
      )}
    </>
  );
}
