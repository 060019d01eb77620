// The project's members and their roles. Owners and managers change roles and remove members
// (the server refuses anyone else); the owner hands the project over; anyone but the owner
// may leave. Invitations (by email, with a role) are on this screen too.
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { messageOf, query } from '../lib/graphql.ts';
import type { AccountState } from '../account/state.ts';
import type { Session } from '../dashboard/session.ts';
import { CHANGE_ROLE, LEAVE_PROJECT, MEMBERS, REMOVE_MEMBER, TRANSFER_OWNERSHIP, type Member, type Role } from './operations.ts';
import { ASSIGNABLE, mayManage, ROLE_LABELS } from './roles.ts';
import { Invitations } from './Invitations.tsx';

interface Props {
  session: Session;
  account: AccountState;
  onLeft(): Promise<void>;
}

export function Members({ session, account, onLeft }: Props) {
  const project = session.project!;
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const me = account.viewer.username;
  const manager = mayManage(session.role);

  const load = async () => {
    try {
      setMembers((await query(MEMBERS, { project })).project.members);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), [project]);

  /** Runs a change, then reads the list (and the viewer, whose own role may have changed). */
  const change = async (what: () => Promise<unknown>, message: string) => {
    setError(null);
    setDone(null);
    try {
      await what();
      setDone(message);
      await load();
      await account.refresh();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <section>
      <h1>Members</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {done && <p class="notice" role="status">{done}</p>}
      {members === null ? <p>Loading…</p> : (
        <table class="members">
          <thead><tr><th>Member</th><th>Role</th><th>Since</th>{manager && <th><span class="visually-hidden">Actions</span></th>}</tr></thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.username} data-member={m.username}>
                <td>{m.name || m.username} <span class="hint">{m.username}{m.username === me ? ' (you)' : ''}</span></td>
                <td>
                  {manager && m.role !== 'OWNER' && m.username !== me ? (
                    <select
                      aria-label={`Role of ${m.username}`}
                      value={m.role}
                      onChange={(e) => {
                        const role = (e.currentTarget as HTMLSelectElement).value as Role;
                        void change(() => query(CHANGE_ROLE, { project, account: m.username, role }), `${m.username} is now ${ROLE_LABELS[role].toLowerCase()}.`);
                      }}
                    >
                      {ASSIGNABLE.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
                    </select>
                  ) : ROLE_LABELS[m.role]}
                </td>
                <td>{when(m.since)}</td>
                {manager && (
                  <td class="actions">
                    {manager && m.role !== 'OWNER' && m.username !== me && (
                      <ConfirmButton label="Remove" name={`Remove ${m.username}`} question={`Remove ${m.username} from the project?`} onConfirm={() => change(() => query(REMOVE_MEMBER, { project, account: m.username }), `${m.username} was removed.`)} />
                    )}{' '}
                    {session.role === 'OWNER' && m.username !== me && (
                      <ConfirmButton label="Make owner" name={`Make owner: ${m.username}`} question={`Hand the project to ${m.username}? You stay as a manager.`} onConfirm={() => change(() => query(TRANSFER_OWNERSHIP, { project, account: m.username }), `${m.username} now owns the project.`)} />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manager && <Invitations session={session} onChange={load} />}
      {session.role !== 'OWNER' && (
        <p>
          <ConfirmButton
            label="Leave project"
            question={`Leave ${session.projectName}? You lose access at once.`}
            onConfirm={async () => {
              try {
                await query(LEAVE_PROJECT, { project });
                await onLeft();
              } catch (err) {
                setError(messageOf(err));
              }
            }}
          />
        </p>
      )}
    </section>
  );
}
