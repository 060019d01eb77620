// Inviting people to the project by email, with a role (owners and managers): the server mails
// a link to /invite/<token>, where they join with their account or make one. Pending
// invitations are listed and can be withdrawn (the link stops working).
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { messageOf, query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { INVITATIONS, INVITE_MEMBER, REVOKE_INVITATION, type InvitationRow, type Role } from './operations.ts';
import { ASSIGNABLE, ROLE_LABELS } from './roles.ts';

export function Invitations({ session, onChange }: { session: Session; onChange(): unknown }) {
  const project = session.project!;
  const [pending, setPending] = useState<InvitationRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    try {
      setPending((await query(INVITATIONS, { project })).project.invitations);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), [project]);

  const invite = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const email = String(form.get('email') ?? '').trim();
    const role = String(form.get('role')) as Role;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await query(INVITE_MEMBER, { project, email, role });
      formElement.reset();
      setDone(`Invitation sent to ${email}.`);
      await load();
      onChange();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (i: InvitationRow) => {
    setError(null);
    setDone(null);
    try {
      await query(REVOKE_INVITATION, { project, id: i.id });
      setDone(`The invitation to ${i.email} was withdrawn.`);
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invite someone</h2>
      <form class="card" aria-label="Invite someone" onSubmit={invite}>
        <label for="invite-email">Email address</label>
        <input id="invite-email" name="email" type="email" required autocomplete="off" spellcheck={false} />
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">
          {ASSIGNABLE.map((r) => <option key={r} value={r} selected={r === 'REGULAR'}>{ROLE_LABELS[r]}</option>)}
        </select>
        <button type="submit" disabled={busy}>{busy ? 'Sending…' : 'Send invitation'}</button>
        {error && <p class="error" role="alert">{error}</p>}
        {done && <p class="notice" role="status">{done}</p>}
        <p class="hint">They get a link that works once, within 7 days; without an account they make one as they accept.</p>
      </form>
      {pending && pending.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <table class="invitations">
            <thead><tr><th>Address</th><th>Role</th><th>Invited by</th><th>Expires</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {pending.map((i) => (
                <tr key={i.id} data-invitation={i.email}>
                  <td>{i.email}</td>
                  <td>{ROLE_LABELS[i.role]}</td>
                  <td>{i.invitedBy ?? '—'}</td>
                  <td>{when(i.expiresAt)}</td>
                  <td class="actions">
                    <ConfirmButton label="Withdraw" name={`Withdraw the invitation to ${i.email}`} question="The link stops working. Withdraw it?" onConfirm={() => revoke(i)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
