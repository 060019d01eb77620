// A person's notes (Slate's Person `Notes`), on their page for Staff only, as the server serves
// them: newest first, subject, author, date and message, with add, edit and delete. A message
// in HTML is shown as its text (its tags dropped, never parsed or injected as markup).
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { when } from '../lib/format.ts';
import { query } from '../lib/graphql.ts';
import { ErrorText, Notice, useLoaded } from './common.tsx';
import { fullName, recordHref } from './kinds.ts';
import { atLeast, type Me } from './levels.ts';
import * as Op from './notes-operations.ts';

interface Props {
  personId: number;
  me: Me;
  failure: (err: unknown) => string;
  /** Changes when the person changed elsewhere (their page read them again): the panel reads again too. */
  revision?: unknown;
}

const FORMATS = ['html', 'plain'] as const;
const STATUSES = ['draft-private', 'draft-shared', 'sent'] as const;
const STATUS_LABEL: Record<string, string> = { 'draft-private': 'Private draft (only you)', 'draft-shared': 'Shared draft', sent: 'Sent', deleted: 'Deleted' };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * A message as plain text. HTML is never parsed into the page (a DOMParser document would
 * still compile an inline handler it holds): its tags are dropped as text, scripts and styles
 * with their content, block ends and line breaks kept as line breaks, and the common entities
 * decoded. The result is rendered as a text node, so nothing in it can become markup.
 */
export function messageText(message: string, format: string): string {
  if (format !== 'html') return message;
  return message
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote|pre)\s*>/gi, '\n')
    .replace(/<[^>]*>?/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type Values = { subject: string; message: string; messageFormat: string; status: string };
const blank: Values = { subject: '', message: '', messageFormat: 'html', status: 'draft-private' };

export function PersonNotes(props: Props) {
  // The server refuses notes below Staff; the section is left out rather than shown empty.
  return atLeast(props.me.level, 'Staff') ? <NotesPanel {...props} /> : null;
}

function NotesPanel({ personId, failure, revision }: Props) {
  // Each change reads the notes again: what shows is what was stored.
  const { value: notes, error, done, busy, run } = useLoaded(async () => (await query(Op.PERSON_NOTES, { id: String(personId) })).person?.notes ?? [], failure, [personId, revision]);
  const [editing, setEditing] = useState<number | null>(null);

  return (
    <section class="related notes" aria-label="Notes">
      <h2>Notes {notes && <span class="hint">({notes.length})</span>}</h2>
      <ErrorText message={error} />
      <Notice message={done} />
      {notes === undefined ? (
        !error && <p>Loading…</p>
      ) : notes.length === 0 ? (
        <p class="hint">No notes on this person yet.</p>
      ) : (
        <ul class="note-list">
          {notes.map((n) => (
            <li key={n.databaseId} data-note={n.databaseId}>
              <h3>{n.subject}</h3>
              <p class="hint">
                {n.author ? <a href={recordHref('Person', n.author.databaseId)}>{fullName(n.author)}</a> : 'Unknown author'} · {when(n.created)} · {STATUS_LABEL[n.status] ?? n.status}
              </p>
              <p class="note-message" style={{ whiteSpace: 'pre-line' }}>{messageText(n.message, n.messageFormat)}</p>
              {editing === n.databaseId ? (
                <NoteForm
                  id={`note-${n.databaseId}`}
                  legend={`Edit “${n.subject}”`}
                  initial={{ subject: n.subject, message: n.message, messageFormat: n.messageFormat, status: n.status }}
                  submitLabel="Save note"
                  busy={busy}
                  onCancel={() => setEditing(null)}
                  onSave={async (v) => {
                    const ok = await run(() => query(Op.UPDATE_NOTE, { id: String(n.databaseId), input: v }), `The note “${v.subject}” was saved.`);
                    if (ok) setEditing(null);
                    return ok;
                  }}
                />
              ) : (
                <span class="actions">
                  <button type="button" class="secondary" disabled={busy} aria-label={`Edit the note “${n.subject}”`} onClick={() => setEditing(n.databaseId)}>Edit</button>{' '}
                  <ConfirmButton label="Delete" name={`Delete the note “${n.subject}”`} question={`Delete the note “${n.subject}”? This cannot be undone.`} disabled={busy} onConfirm={() => run(() => query(Op.DELETE_NOTE, { id: String(n.databaseId) }), `The note “${n.subject}” was deleted.`)} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <NoteForm
        id="add-note"
        legend="Add a note"
        initial={blank}
        submitLabel="Add note"
        busy={busy}
        onSave={(v) => run(() => query(Op.CREATE_NOTE, { person: String(personId), input: v }), `The note “${v.subject}” was added.`)}
      />
    </section>
  );
}

function NoteForm({ id, legend, initial, submitLabel, busy, onSave, onCancel }: { id: string; legend: string; initial: Values; submitLabel: string; busy: boolean; onSave: (v: Values) => Promise<boolean>; onCancel?: () => void }) {
  const [values, setValues] = useState<Values>(initial);
  const set = (name: keyof Values) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [name]: e.currentTarget.value });
  return (
    <form
      class="campus-add note-form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        // The server checks the fields and says what is missing (Slate's messages).
        if ((await onSave(values)) && !onCancel) setValues(blank);
      }}
    >
      <fieldset>
        <legend>{legend}</legend>
        <div class="field">
          <label for={`${id}-subject`}>Subject</label>
          <input id={`${id}-subject`} value={values.subject} onInput={set('subject')} />
        </div>
        <div class="field">
          <label for={`${id}-format`}>Format</label>
          <select id={`${id}-format`} value={values.messageFormat} onChange={set('messageFormat')}>{FORMATS.map((f) => <option key={f} value={f}>{f === 'html' ? 'HTML' : 'Plain text'}</option>)}</select>
        </div>
        <div class="field">
          <label for={`${id}-status`}>Status</label>
          <select id={`${id}-status`} value={values.status} onChange={set('status')}>
            {[...STATUSES, ...(STATUSES.includes(values.status as never) ? [] : [values.status])].map((s) => <option key={s} value={s}>{STATUS_LABEL[s] ?? s}</option>)}
          </select>
        </div>
        <div class="field" style={{ flexBasis: '100%' }}>
          <label for={`${id}-message`}>Message</label>
          <textarea id={`${id}-message`} rows={4} value={values.message} onInput={set('message')} />
        </div>
        <button type="submit" disabled={busy}>{submitLabel}</button>
        {onCancel && <button type="button" class="secondary" onClick={onCancel}>Cancel</button>}
      </fieldset>
    </form>
  );
}
