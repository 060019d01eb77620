// Who did what in the project, newest first (owners and managers): a person by username, a
// program by its key's name, an administrator as CLI. Older entries a page at a time.
import { useEffect, useState } from 'preact/hooks';
import { when } from '../lib/format.ts';
import { messageOf, query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { AUDIT_LOG, type AuditRow } from './operations.ts';

const ACTIONS: Record<string, string> = {
  'check.created': 'created the check',
  'check.updated': 'changed the check',
  'check.paused': 'paused the check',
  'check.resumed': 'resumed the check',
  'check.deleted': 'deleted the check',
  'channel.created': 'added the channel',
  'channel.updated': 'changed the channel',
  'channel.deleted': 'removed the channel',
  'channel.verification_sent': 'asked the recipient to confirm the channel',
  'channel.verified': 'confirmed the address of the channel',
  'channel.unsubscribed': 'unsubscribed from the channel',
  'key.created': 'created the key',
  'key.revoked': 'revoked the key',
  'member.added': 'added the member',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed the member',
  'member.left': 'left the project',
  'ownership.transferred': 'handed the project to',
  'invitation.sent': 'invited',
  'invitation.accepted': 'accepted the invitation of',
  'invitation.revoked': 'revoked the invitation of',
  'project.created': 'created the project',
  'project.renamed': 'renamed the project',
  'project.ping_log_limit_changed': 'changed the ping log limit of',
};

/** The detail's JSON as short text: a role change as "regular → readonly", fields by name. */
function detailText(detail: string | null): string {
  if (!detail) return '';
  try {
    const value = JSON.parse(detail) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as Record<string, unknown>;
      if ('from' in v && 'to' in v) return `${String(v.from)} → ${String(v.to)}`;
      return Object.entries(v).map(([k, x]) => `${k}: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`).join(', ');
    }
    return String(value);
  } catch {
    return detail;
  }
}

export function AuditLog({ session }: { session: Session }) {
  const project = session.project!;
  const [rows, setRows] = useState<AuditRow[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async (after: number | null) => {
    try {
      const page = (await query(AUDIT_LOG, { project, after })).project.auditLog;
      setRows((list) => (after === null ? page.nodes : [...(list ?? []), ...page.nodes]));
      setNext(page.hasNextPage ? page.endCursor : null);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(null), [project]);
  return (
    <section>
      <h1>Audit log</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {rows === null ? <p>Loading…</p> : rows.length === 0 ? <p class="hint">Nothing yet.</p> : (
        <table class="audit">
          <thead><tr><th>When</th><th>Who</th><th>What</th><th>Detail</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-action={r.action}>
                <td>{when(r.at)}</td>
                <td class="actor">{r.actor}</td>
                <td>{r.action === 'member.added' && r.actor === r.targetName ? 'joined the project' : <>{ACTIONS[r.action] ?? r.action} <strong>{r.targetName}</strong></>}</td>
                <td class="hint">{detailText(r.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next !== null && <p><button type="button" class="secondary" onClick={() => void load(next)}>Older entries</button></p>}
    </section>
  );
}
