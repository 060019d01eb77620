// Second factors. The authenticator app: a new secret (typed in, or opened as an otpauth://
// link), turned on by a first code from the app. Security keys and passkeys: registered through
// the browser (WebAuthn, @simplewebauthn/browser). Recovery codes come with the first factor and
// are shown once. Turning a factor off or removing a key asks for the password again.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { startRegistration } from '@simplewebauthn/browser';
import { when } from '../lib/format.ts';
import { messageOf, query } from '../lib/graphql.ts';
import { BEGIN_KEY_SETUP, BEGIN_TOTP, CONFIRM_TOTP, DISABLE_TOTP, FINISH_KEY_SETUP, NEW_RECOVERY_CODES, REMOVE_KEY, SECOND_FACTORS, type Factors } from './operations.ts';

export function TwoFactor() {
  const [factors, setFactors] = useState<Factors | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const load = async () => {
    try {
      setFactors((await query(SECOND_FACTORS)).secondFactors);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), []);
  /** Runs a change and reads the factors again; a thrown error is shown (and rethrown for forms that stay open). */
  const act = async (what: () => Promise<string | null>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await what());
    } catch (err) {
      setError(err instanceof Error && err.name === 'NotAllowedError' ? 'The security key was not used (cancelled or timed out).' : messageOf(err));
      throw err;
    } finally {
      await load();
    }
  };
  const quietly = (p: Promise<unknown>) => void p.catch(() => {});

  return (
    <section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      <p class="hint">With a second factor on, signing in asks for it after the password.</p>
      {error && <p class="error" role="alert">{error}</p>}
      {done && <p class="notice" role="status">{done}</p>}
      {codes && <RecoveryCodes codes={codes} onDismiss={() => setCodes(null)} />}
      {factors === null ? <p>Loading…</p> : (
        <>
          <h3>Authenticator app</h3>
          {factors.totp ? (
            <div class="card" data-totp="on">
              <p>An authenticator app is on.</p>
              <PasswordAction label="Turn off the authenticator app" onSubmit={(password) => act(async () => {
                await query(DISABLE_TOTP, { password });
                return 'The authenticator app is off.';
              })} />
            </div>
          ) : (
            <TotpSetup onConfirmed={(recovery) => quietly(act(async () => {
              setCodes(recovery);
              return 'The authenticator app is on.';
            }))} />
          )}

          <h3>Security keys and passkeys</h3>
          {factors.securityKeys.length > 0 && (
            <table class="security-keys">
              <thead><tr><th>Name</th><th>Added</th><th>Last used</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {factors.securityKeys.map((k) => (
                  <tr key={k.id} data-security-key={k.name}>
                    <td>{k.name}</td>
                    <td>{when(k.createdAt)}</td>
                    <td>{when(k.lastUsedAt, 'never')}</td>
                    <td class="actions">
                      <PasswordAction label={`Remove ${k.name}`} onSubmit={(password) => act(async () => {
                        await query(REMOVE_KEY, { id: k.id, password });
                        return `${k.name} was removed.`;
                      })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <PasswordAction
            label="Add a security key"
            fields={<>
              <label for="security-key-name">Name of the key</label>
              <input id="security-key-name" name="name" placeholder="e.g. YubiKey, laptop" maxLength={60} />
            </>}
            onSubmit={(password, form) => act(async () => {
              const name = String(form.get('name') ?? '').trim() || 'Security key';
              const options = JSON.parse((await query(BEGIN_KEY_SETUP, { password })).beginSecurityKeySetup);
              const answer = await startRegistration({ optionsJSON: options });
              const saved = (await query(FINISH_KEY_SETUP, { name, response: JSON.stringify(answer) })).finishSecurityKeySetup;
              if (saved.recoveryCodes) setCodes(saved.recoveryCodes);
              return `${saved.securityKey.name} was added.`;
            })}
          />

          <h3>Recovery codes</h3>
          <p data-recovery-left={factors.recoveryCodesLeft}>
            {factors.recoveryCodesLeft === 0 ? 'None.' : `${factors.recoveryCodesLeft} unused recovery codes.`}{' '}
            <span class="hint">Each signs you in once when your app or key is not at hand.</span>
          </p>
          {(factors.totp || factors.securityKeys.length > 0) && (
            <PasswordAction label="New recovery codes" onSubmit={(password) => act(async () => {
              setCodes((await query(NEW_RECOVERY_CODES, { password })).regenerateRecoveryCodes);
              return 'New recovery codes: the previous ones no longer work.';
            })} />
          )}
        </>
      )}
    </section>
  );
}

/** Setting up the app: the secret, then a first code from the app turns it on. */
function TotpSetup({ onConfirmed }: { onConfirmed(codes: string[]): void }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const begin = async (password: string) => {
    setError(null);
    try {
      setSetup((await query(BEGIN_TOTP, { password })).beginTotpSetup);
    } catch (err) {
      setError(messageOf(err));
      throw err;
    }
  };
  const confirm = async (event: Event) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').replace(/\s+/g, '');
    setBusy(true);
    setError(null);
    try {
      onConfirmed((await query(CONFIRM_TOTP, { code })).confirmTotpSetup);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  if (!setup) {
    return (
      <div class="card" data-totp="off">
        <p>Not set up.</p>
        <PasswordAction label="Set up an authenticator app" onSubmit={(password) => begin(password)} />
        {error && <p class="error" role="alert">{error}</p>}
      </div>
    );
  }
  return (
    <form class="card" onSubmit={confirm} data-totp="setup">
      <p>Add this account to your authenticator app: open the link on the device that has the app, or type in the secret key.</p>
      <label for="totp-secret">Secret key</label>
      <input id="totp-secret" readOnly value={setup.secret} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
      <label for="totp-uri">Setup link</label>
      <input id="totp-uri" readOnly value={setup.uri} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
      <p><a href={setup.uri}>Open in the authenticator app</a></p>
      <label for="totp-code">Code from the app</label>
      <input id="totp-code" name="code" required inputMode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" />
      <button type="submit" disabled={busy}>{busy ? 'Checking…' : 'Turn on'}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

/** Recovery codes, shown this once. */
function RecoveryCodes({ codes, onDismiss }: { codes: string[]; onDismiss(): void }) {
  return (
    <div class="card shown-once" role="region" aria-label="Recovery codes">
      <p><strong>Your recovery codes.</strong> Each works once. Keep them somewhere safe: they are not shown again.</p>
      <ol class="codes">{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ol>
      <button type="button" onClick={onDismiss}>I have saved them</button>
    </div>
  );
}

/** A button that asks for the password (and any `fields`) before it acts; the server checks it again. */
function PasswordAction({ label, fields, onSubmit }: { label: string; fields?: ComponentChildren; onSubmit(password: string, form: FormData): Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = `password-${label.replace(/\W+/g, '-').toLowerCase()}`;
  if (!open) return <button type="button" class="secondary" onClick={() => setOpen(true)}>{label}</button>;
  return (
    <form
      class="card inline"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget as HTMLFormElement);
        setBusy(true);
        onSubmit(String(form.get('password') ?? ''), form).then(
          () => setOpen(false),
          () => setBusy(false),
        );
      }}
    >
      {fields}
      <label for={id}>Current password</label>
      <input id={id} name="password" type="password" autocomplete="current-password" required />
      <button type="submit" disabled={busy}>{label}</button>
      <button type="button" class="link" onClick={() => setOpen(false)}>Cancel</button>
    </form>
  );
}
