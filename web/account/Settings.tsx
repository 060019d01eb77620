// Account settings: the password, the second factors (an authenticator app, security keys or
// passkeys, recovery codes), email reports and nags, and where the person is signed in (and
// signing out everywhere else).
import { useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import type { AccountState } from './state.ts';
import { CHANGE_PASSWORD } from './operations.ts';
import { ReportSettings } from './ReportSettings.tsx';
import { Sessions } from './Sessions.tsx';
import { TwoFactor } from './TwoFactor.tsx';

export function Settings({ account }: { account: AccountState }) {
  const { viewer } = account;
  const name = [viewer.person.firstName, viewer.person.lastName].filter(Boolean).join(' ');
  return (
    <section class="settings">
      <h1>Account settings</h1>
      <p>
        Signed in as <strong>{viewer.username}</strong>
        {name && ` (${name})`}
        {viewer.email && <span class="hint"> · {viewer.email}</span>}
      </p>
      <TwoFactor />
      <ReportSettings />
      <Sessions onSignedOut={account.signOut} />
      <ChangePassword />
    </section>
  );
}

function ChangePassword() {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setError(null);
    setDone(null);
    if (form.get('newPassword') !== form.get('repeat')) return setError('The new password and its repetition differ.');
    try {
      const { changePassword: ended } = await query(CHANGE_PASSWORD, { currentPassword: String(form.get('currentPassword')), newPassword: String(form.get('newPassword')) });
      formElement.reset();
      setDone(`Password changed${ended ? `; ${ended} other session${ended === 1 ? '' : 's'} ended` : ''}.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form class="card" aria-label="Change password" onSubmit={submit}>
        <label for="current-password">Current password</label>
        <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
        <label for="new-password">New password</label>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required />
        <label for="repeat-password">New password again</label>
        <input id="repeat-password" name="repeat" type="password" autocomplete="new-password" required />
        <button type="submit">Change password</button>
        {error && <p class="error" role="alert">{error}</p>}
        {done && <p class="notice" role="status">{done}</p>}
      </form>
    </section>
  );
}
