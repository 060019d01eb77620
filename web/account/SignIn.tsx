// Signing in with an account: a username or email address and the password, then, when the
// person has turned two-factor authentication on, one of their second factors (the server's
// SECOND_FACTOR_REQUIRED error says which they have). The password stays in this component's
// memory between the two steps: the server checks it again with the second factor.
import { useState } from 'preact/hooks';
import { startAuthentication } from '@simplewebauthn/browser';
import { messageOf, query, RequestError } from '../lib/graphql.ts';
import { BEGIN_KEY_SIGN_IN, REQUEST_PASSWORD_RESET, REQUEST_SIGN_IN_LINK, SIGN_IN } from './operations.ts';
import { SignUp } from './SignUp.tsx';

export type Method = 'TOTP' | 'SECURITY_KEY' | 'RECOVERY_CODE';

/** What the browser's WebAuthn refusal means to the person (cancelled, timed out, no such key). */
export const keyErrorMessage = (err: unknown) =>
  err instanceof Error && err.name === 'NotAllowedError' ? 'The security key was not used (cancelled or timed out).' : messageOf(err);

interface Props {
  onSignedIn: () => void;
  /** The secondary way in (a wall display's API key); absent where it makes no sense (an invitation). */
  onUseKey?: () => void;
  heading?: string;
  /** Set when the page came from a link that ended (an expired session, a used sign-in link). */
  notice?: string | null;
}

export function SignIn({ onSignedIn, onUseKey, heading = 'Sign in', notice }: Props) {
  const [credentials, setCredentials] = useState<{ username: string; password: string } | null>(null);
  const [methods, setMethods] = useState<Method[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (username: string, password: string, factor: { totp?: string; securityKey?: string; recoveryCode?: string } = {}) => {
    setBusy(true);
    setError(null);
    try {
      await query(SIGN_IN, { username, password, ...factor });
      onSignedIn();
    } catch (err) {
      if (err instanceof RequestError && err.code === 'SECOND_FACTOR_REQUIRED') {
        setCredentials({ username, password });
        setMethods((err.extensions.methods as Method[] | undefined) ?? ['TOTP']);
      } else {
        setError(messageOf(err));
      }
      setBusy(false);
    }
  };

  if (credentials) {
    return (
      <SecondFactor
        methods={methods}
        busy={busy}
        error={error}
        onCode={(factor) => attempt(credentials.username, credentials.password, factor)}
        onSecurityKey={async () => {
          setBusy(true);
          setError(null);
          try {
            const options = await query(BEGIN_KEY_SIGN_IN, credentials);
            const answer = await startAuthentication({ optionsJSON: JSON.parse(options.beginSecurityKeySignIn) });
            await attempt(credentials.username, credentials.password, { securityKey: JSON.stringify(answer) });
          } catch (err) {
            setError(keyErrorMessage(err));
            setBusy(false);
          }
        }}
        onBack={() => {
          setCredentials(null);
          setError(null);
        }}
      />
    );
  }

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!username || !password) return setError('Enter your username or email address and your password.');
    void attempt(username, password);
  };
  return (
    <main class="narrow">
      <h1>{heading}</h1>
      {notice && <p class="card notice" role="status">{notice}</p>}
      <form class="card" onSubmit={submit} method="post">
        <label for="username">Username or email</label>
        <input id="username" name="username" autocomplete="username" spellcheck={false} autocapitalize="none" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
      <MailedLinks />
      {/* The front door only: an invitation's page makes its own account. */}
      {onUseKey && <SignUp />}
      {onUseKey && (
        <p class="secondary">
          <button type="button" class="link" onClick={onUseKey}>Use an API key (read-only display)</button>
        </p>
      )}
    </main>
  );
}

/** Getting in by mail: a link to choose a new password, or one that signs in. */
function MailedLinks() {
  const [open, setOpen] = useState<'reset' | 'link' | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('address') ?? '').trim();
    setError(null);
    try {
      if (open === 'reset') await query(REQUEST_PASSWORD_RESET, { username: value });
      else await query(REQUEST_SIGN_IN_LINK, { email: value });
      // The server says the same whether or not the account exists; so does the page.
      setSent(open === 'reset' ? 'If that account exists, a link to choose a new password is on its way to its address.' : 'If that address belongs to an account, a sign-in link is on its way to it.');
      setOpen(null);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <p class="secondary">
        <button type="button" class="link" onClick={() => { setOpen('reset'); setSent(null); }}>Forgot your password?</button>{' · '}
        <button type="button" class="link" onClick={() => { setOpen('link'); setSent(null); }}>Email me a sign-in link</button>
      </p>
      {sent && <p class="notice" role="status">{sent}</p>}
      {open && (
        <form class="card" onSubmit={submit} aria-label={open === 'reset' ? 'Reset your password' : 'Get a sign-in link'} key={open}>
          <label for="mail-address">{open === 'reset' ? 'Your username or email' : 'Your email address'}</label>
          {open === 'reset' ? (
            <input id="mail-address" name="address" required autocomplete="username" spellcheck={false} />
          ) : (
            <input id="mail-address" name="address" type="email" required autocomplete="email" spellcheck={false} />
          )}
          <button type="submit">{open === 'reset' ? 'Send a reset link' : 'Send a sign-in link'}</button>
          {error && <p class="error" role="alert">{error}</p>}
        </form>
      )}
    </>
  );
}

export interface FactorProps {
  methods: Method[];
  busy: boolean;
  error: string | null;
  onCode(factor: { totp?: string; recoveryCode?: string }): void;
  onSecurityKey(): void;
  onBack(): void;
}

export function SecondFactor({ methods, busy, error, onCode, onSecurityKey, onBack }: FactorProps) {
  const [recovery, setRecovery] = useState(!methods.includes('TOTP') && !methods.includes('SECURITY_KEY'));
  const submit = (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    if (value) onCode(recovery ? { recoveryCode: value } : { totp: value.replace(/\s+/g, '') });
  };
  const codeForm = (id: string, label: string, props: Record<string, string>) => (
    <form class="card" onSubmit={submit} key={id}>
      <label for={id}>{label}</label>
      <input id={id} name="code" required autocomplete="one-time-code" spellcheck={false} {...props} />
      <button type="submit" disabled={busy}>{busy ? 'Checking…' : 'Verify'}</button>
    </form>
  );
  return (
    <main class="narrow">
      <h1>Two-factor authentication</h1>
      {methods.includes('SECURITY_KEY') && !recovery && (
        <div class="card">
          <p>Use the security key or passkey you registered.</p>
          <button type="button" disabled={busy} onClick={onSecurityKey}>Use your security key</button>
        </div>
      )}
      {methods.includes('TOTP') && !recovery && codeForm('totp', 'Authentication code', { inputmode: 'numeric', pattern: '[0-9 ]*', placeholder: '123456' })}
      {recovery && codeForm('recovery-code', 'Recovery code', {})}
      {error && <p class="error" role="alert">{error}</p>}
      <p class="secondary">
        {methods.includes('RECOVERY_CODE') && (
          <button type="button" class="link" onClick={() => setRecovery(!recovery)}>{recovery ? 'Use your app or key instead' : 'Use a recovery code'}</button>
        )}{' '}
        <button type="button" class="link" onClick={onBack}>Start over</button>
      </p>
    </main>
  );
}
