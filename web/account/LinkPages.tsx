// The pages emailed links open, besides invitations: /reset/<token> (a new password),
// /sign-in/<token> (signs in, then asks for the second factor when one is on), /verify/<token>
// (confirms a sign-up's address). Each acts on a press, not on load: mail scanners that follow
// links must not use them up.
import { useState } from 'preact/hooks';
import { startAuthentication } from '@simplewebauthn/browser';
import { messageOf, query, RequestError } from '../lib/graphql.ts';
import { BEGIN_KEY_SIGN_IN_WITH_LINK, RESET_PASSWORD, SIGN_IN_WITH_LINK, VERIFY_EMAIL } from './operations.ts';
import { keyErrorMessage, SecondFactor, type Method } from './SignIn.tsx';

export function ResetPassword({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    if (form.get('password') !== form.get('repeat')) return setError('The password and its repetition differ.');
    setBusy(true);
    setError(null);
    try {
      await query(RESET_PASSWORD, { token, password: String(form.get('password') ?? '') });
      setDone(true);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  if (done) {
    return (
      <main class="narrow">
        <h1>Password changed</h1>
        <p class="notice" role="status">Your password was changed, and every session of your account has ended.</p>
        <p><a href="/">Sign in with the new password</a></p>
      </main>
    );
  }
  return (
    <main class="narrow">
      <h1>Choose a new password</h1>
      <form class="card" onSubmit={submit}>
        <label for="new-password">New password</label>
        <input id="new-password" name="password" type="password" required autocomplete="new-password" />
        <label for="repeat-password">New password again</label>
        <input id="repeat-password" name="repeat" type="password" required autocomplete="new-password" />
        <button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Set the new password'}</button>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </main>
  );
}

export function LinkSignIn({ token }: { token: string }) {
  const [methods, setMethods] = useState<Method[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const attempt = async (factor: { totp?: string; securityKey?: string; recoveryCode?: string } = {}) => {
    setBusy(true);
    setError(null);
    try {
      await query(SIGN_IN_WITH_LINK, { token, ...factor });
      // A full load, replacing this address: the used token leaves the history.
      location.replace('/');
    } catch (err) {
      if (err instanceof RequestError && err.code === 'SECOND_FACTOR_REQUIRED') setMethods((err.extensions.methods as Method[] | undefined) ?? ['TOTP']);
      else setError(messageOf(err));
      setBusy(false);
    }
  };
  if (methods) {
    return (
      <SecondFactor
        methods={methods}
        busy={busy}
        error={error}
        onCode={(factor) => void attempt(factor)}
        onSecurityKey={async () => {
          setBusy(true);
          setError(null);
          try {
            const options = JSON.parse((await query(BEGIN_KEY_SIGN_IN_WITH_LINK, { token })).beginSecurityKeySignInWithLink);
            await attempt({ securityKey: JSON.stringify(await startAuthentication({ optionsJSON: options })) });
          } catch (err) {
            setError(keyErrorMessage(err));
            setBusy(false);
          }
        }}
        onBack={() => location.replace('/')}
      />
    );
  }
  return (
    <main class="narrow">
      <h1>Sign in with your link</h1>
      <div class="card">
        <p>This link signs you in to this browser, once, within an hour of being sent.</p>
        <button type="button" disabled={busy} onClick={() => void attempt()}>{busy ? 'Signing in…' : 'Continue'}</button>
        {error && <p class="error" role="alert">{error}</p>}
      </div>
      <p class="secondary"><a href="/">Sign in with your password instead</a></p>
    </main>
  );
}

export function VerifyEmail({ token }: { token: string }) {
  const [state, setState] = useState<'ready' | 'busy' | 'done'>('ready');
  const [error, setError] = useState<string | null>(null);
  const verify = async () => {
    setState('busy');
    setError(null);
    try {
      await query(VERIFY_EMAIL, { token });
      setState('done');
    } catch (err) {
      setError(messageOf(err));
      setState('ready');
    }
  };
  return (
    <main class="narrow">
      <h1>Confirm your email address</h1>
      {state === 'done' ? (
        <>
          <p class="notice" role="status">Your address is confirmed: your account can sign in now.</p>
          <p><a href="/">Sign in</a></p>
        </>
      ) : (
        <div class="card">
          <button type="button" disabled={state === 'busy'} onClick={() => void verify()}>Confirm my address</button>
          {error && <p class="error" role="alert">{error}</p>}
        </div>
      )}
    </main>
  );
}
