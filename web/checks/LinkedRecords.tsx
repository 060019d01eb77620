// The campus records the check is linked to (its `campus:<kind>/<id>` tags), and for those who
// may write, linking another (by kind and its ID, handle, code or username) and unlinking one.
import { useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { CHECK_LINK_RECORD, CHECK_UNLINK_RECORD, type CampusKind, type LinkedRecord } from './operations.ts';
import { RECORD_KINDS, recordLabel, recordRef } from './records.ts';

interface Props {
  session: Session;
  uuid: string | null;
  records: LinkedRecord[];
  canEdit: boolean;
  onChanged(change: { records: LinkedRecord[]; tags: string[]; tagsString: string }): void;
}

export function LinkedRecords({ session, uuid, records, canEdit, onChanged }: Props) {
  const [kind, setKind] = useState<CampusKind>('Section');
  const [handle, setHandle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editable = canEdit && uuid !== null;

  const run = async (what: () => Promise<{ records: LinkedRecord[]; tags: string[]; tagsString: string }>) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await what());
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const link = async (event: Event) => {
    event.preventDefault();
    if (!uuid || !handle.trim()) return;
    const ok = await run(async () => (await query(CHECK_LINK_RECORD, { check: uuid, kind, handle: handle.trim() }, session.key)).linkCheckRecord);
    if (ok) setHandle('');
  };
  const hint = RECORD_KINDS.find((k) => k.kind === kind)?.hint;

  return (
    <>
      {records.length ? (
        <ul class="linked-records">
          {records.map((r) => (
            <li key={`${r.__typename}-${r.databaseId}`} data-record={`${r.__typename}/${r.databaseId}`}>
              <span class="tag record">{recordLabel(r)}</span>
              {editable && (
                <button type="button" class="link" disabled={busy} aria-label={`Unlink ${recordLabel(r)}`} onClick={() => void run(async () => (await query(CHECK_UNLINK_RECORD, { check: uuid, ...recordRef(r) }, session.key)).unlinkCheckRecord)}>
                  Unlink
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p class="hint">Not linked to any campus record{editable ? '' : ' (or none you may read)'}.</p>
      )}
      {editable && (
        <form class="inline link-record" onSubmit={link} aria-label="Link a campus record">
          <div class="field">
            <label for="link-kind">Record kind</label>
            <select id="link-kind" value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as CampusKind)}>
              {RECORD_KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
            </select>
          </div>
          <div class="field field-handle">
            <label for="link-handle">Record</label>
            <input id="link-handle" value={handle} required autocomplete="off" spellcheck={false} aria-describedby="link-handle-hint" onInput={(e) => setHandle((e.currentTarget as HTMLInputElement).value)} />
          </div>
          <button type="submit" disabled={busy}>Link</button>
          <p class="hint" id="link-handle-hint">The record's {hint}. The link is stored as a tag of the check, <code>campus:{kind.toLowerCase()}/…</code>.</p>
        </form>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </>
  );
}
