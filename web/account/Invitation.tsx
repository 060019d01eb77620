// /invite/<token>: what the invitation is for, then joining, as the person signed in here or
// as a new account made on the spot with the invited address (signed in at once). Someone with
// an account who is not signed in signs in first. The token goes only to the GraphQL API.
import { useEffect, useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import { ROLE_LABELS } from '../project/roles.ts';
import { ACCEPT_INVITATION, INVITATION, SIGN_OUT, type Preview } from './operations.ts';
import { SignIn } from './SignIn.tsx';

interface Loaded {
  invitation: Preview | null;
  viewer: { username: string; projects: Array<{ project: { uuid: string } }> } | null;
}

export function Invitation({ token }: { token: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  const load = async () => {
    try {
      setLoaded(await query(INVITATION, { token }));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), [token]);

  if (!loaded) return <main class="narrow">{error ? <p class="error" role="alert">{error}</p> : <p>Loading…</p>}</main>;
  const { invitation, viewer } = loaded;
  if (!invitation) {
    return (
      <main class="narrow">
        <h1>Invitation</h1>
        <p class="error" role="alert">This invitation has expired, was withdrawn or was already accepted.</p>
        <p><a href="/">Go to the dashboard</a></p>
      </main>
    );
  }
  if (signingIn && !viewer) {
    return <SignIn heading={`Sign in to join ${invitation.projectName}`} onSignedIn={() => { setSigningIn(false); void load(); }} />;
  }

  /** Accepts, then opens the project joined (the one the person was not in before). */
  const accept = async (account: { username?: string; password?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const before = new Set(viewer?.projects.map((m) => m.project.uuid) ?? []);
      const { acceptInvitation } = await query(ACCEPT_INVITATION, { token, ...account });
      const joined = acceptInvitation.projects.find((m) => !before.has(m.project.uuid))?.project.uuid;
      // A full load, replacing this address: the token leaves the history, the app starts signed in.
      location.replace(joined ? `/?project=${encodeURIComponent(joined)}` : '/');
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    if (form.get('password') !== form.get('repeat')) return setError('The password and its repetition differ.');
    void accept({ username: String(form.get('username') ?? '').trim(), password: String(form.get('password') ?? '') });
  };

  return (
    <main class="narrow">
      <h1>Join {invitation.projectName}</h1>
      <p class="card" data-invitation={invitation.email}>
        {invitation.invitedBy ? <strong>{invitation.invitedBy}</strong> : 'Someone'} invited <strong>{invitation.email}</strong> to the project <strong>{invitation.projectName}</strong> as{' '}
        <strong>{ROLE_LABELS[invitation.role].toLowerCase()}</strong>.
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      {viewer ? (
        <div class="card">
          <p>You are signed in as <strong>{viewer.username}</strong>.</p>
          <button type="button" disabled={busy} onClick={() => void accept({})}>Join as {viewer.username}</button>{' '}
          <button
            type="button"
            class="link"
            onClick={async () => {
              await query(SIGN_OUT);
              await load();
            }}
          >
            Not you? Sign out
          </button>
        </div>
      ) : (
        <>
          <form class="card" aria-label="Create an account" onSubmit={create}>
            <h2>New here? Create your account</h2>
            <p class="hint">It signs in with {invitation.email} or the username you choose.</p>
            <label for="new-username">Username</label>
            <input id="new-username" name="username" required autocomplete="username" spellcheck={false} autocapitalize="none" />
            <label for="new-password">Password</label>
            <input id="new-password" name="password" type="password" required autocomplete="new-password" />
            <label for="repeat-password">Password again</label>
            <input id="repeat-password" name="repeat" type="password" required autocomplete="new-password" />
            <button type="submit" disabled={busy}>{busy ? 'Joining…' : 'Create account and join'}</button>
          </form>
          <p class="secondary">
            Already have an account? <button type="button" class="link" onClick={() => setSigningIn(true)}>Sign in to accept</button>
          </p>
        </>
      )}
    </main>
  );
}
