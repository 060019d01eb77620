// A person's contact points and relationships on their page (Slate's ContactPoints and
// Relationships), as the server serves them: to Staff, the person and their guardians; to
// others the server answers null and a hint says so. Staff add, edit and delete them; a
// relationship's inverse (mother → son) is kept in step by the server.
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { query } from '../lib/graphql.ts';
import { ErrorText, Notice, useLoaded } from './common.tsx';
import { fullName, recordHref } from './kinds.ts';
import { atLeast, type Me } from './levels.ts';
import * as Op from './person-operations.ts';

interface Props {
  personId: number;
  me: Me;
  failure: (err: unknown) => string;
  /** Changes when the person changed elsewhere (their page read them again): the panel reads again too. */
  revision?: unknown;
}

const KINDS: Op.ContactPointKind[] = ['Email', 'Phone', 'Postal', 'Network', 'Link'] as Op.ContactPointKind[];
const HIDDEN = 'None you may see (shown to Staff, to the person themselves and to their guardians).';

export function PersonContacts({ personId, me, failure, revision }: Props) {
  // Each change reads the lists again: what shows is what was stored.
  const { value: data, error, done, busy, run } = useLoaded(
    async () => {
      const { person } = await query(Op.PERSON_CONTACTS, { id: String(personId) });
      return { points: person?.contactPoints ?? null, relationships: person?.relationships ?? null };
    },
    failure,
    [personId, revision],
  );
  const [editing, setEditing] = useState<number | null>(null);
  const staff = atLeast(me.level, 'Staff');

  if (data === undefined) return error ? <ErrorText message={error} /> : null;
  return (
    <>
      <ErrorText message={error} />
      <Notice message={done} />
      <section class="related" aria-label="Contact details">
        <h2>Contact details {data.points && <span class="hint">({data.points.length})</span>}</h2>
        {data.points === null ? (
          <p class="hint">{HIDDEN}</p>
        ) : data.points.length === 0 ? (
          <p class="hint">No contact points yet.</p>
        ) : (
          <table class="records">
            <caption class="visually-hidden">Contact points</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col">Label</th><th scope="col">Value</th><th scope="col">Primary</th>{staff && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr></thead>
            <tbody>
              {data.points.map((p) => (
                <tr key={p.databaseId} data-contact-point={p.databaseId}>
                  <td data-label="Kind">{p.kind}</td>
                  <td data-label="Label">{p.label}</td>
                  <td data-label="Value" style={{ whiteSpace: 'pre-line' }}>{p.string}</td>
                  <td data-label="Primary">{p.primary ? 'Primary' : ''}</td>
                  {staff && (
                    <td>
                      {editing === p.databaseId ? (
                        <PointForm
                          id={`point-${p.databaseId}`}
                          legend={`Edit ${p.label}`}
                          initial={{ kind: p.kind, label: p.label, value: p.string, primary: p.primary }}
                          fixedKind
                          submitLabel="Save"
                          busy={busy}
                          onCancel={() => setEditing(null)}
                          onSave={async (v) => {
                            const ok = await run(() => query(Op.UPDATE_CONTACT_POINT, { id: String(p.databaseId), value: v.value, label: v.label, primary: v.primary || undefined }), `${v.label} was saved.`);
                            if (ok) setEditing(null);
                            return ok;
                          }}
                        />
                      ) : (
                        <span class="actions">
                          <button type="button" class="secondary" disabled={busy} aria-label={`Edit ${p.label} ${p.string}`} onClick={() => setEditing(p.databaseId)}>Edit</button>{' '}
                          <ConfirmButton label="Delete" name={`Delete ${p.label} ${p.string}`} question={`Delete ${p.label} ${p.string}?`} disabled={busy} onConfirm={() => run(() => query(Op.DELETE_CONTACT_POINT, { id: String(p.databaseId) }), `${p.label} was deleted.`)} />
                        </span>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {staff && (
          <PointForm
            id="add-point"
            legend="Add a contact point"
            initial={{ kind: 'Email' as Op.ContactPointKind, label: '', value: '', primary: false }}
            submitLabel="Add contact point"
            busy={busy}
            onSave={(v) => run(() => query(Op.CREATE_CONTACT_POINT, { person: String(personId), kind: v.kind, value: v.value, label: v.label || undefined, primary: v.primary || undefined }), 'The contact point was added.')}
          />
        )}
      </section>
      <section class="related" aria-label="Relationships">
        <h2>Relationships {data.relationships && <span class="hint">({data.relationships.length})</span>}</h2>
        {data.relationships === null ? (
          <p class="hint">{HIDDEN}</p>
        ) : data.relationships.length === 0 ? (
          <p class="hint">No relationships yet.</p>
        ) : (
          <ul>
            {data.relationships.map((r) => (
              <li key={r.databaseId} data-relationship={r.databaseId}>
                <span class="relationship-label">{r.label}</span>:{' '}
                {r.relatedPerson ? <a href={recordHref('Person', r.relatedPerson.databaseId)}>{fullName(r.relatedPerson)}</a> : 'someone you may not see'}
                {r.guardian && <span class="hint"> (guardian)</span>}
                {r.notes && <span class="hint"> · {r.notes}</span>}
                {staff && (
                  <>
                    {' '}
                    <ConfirmButton
                      label="Delete"
                      name={`Delete the relationship ${r.label}`}
                      question={`Delete this relationship and its inverse?`}
                      disabled={busy}
                      onConfirm={() => run(() => query(Op.DELETE_RELATIONSHIP, { id: String(r.databaseId) }), `The relationship ${r.label} was deleted.`)}
                    />
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {staff && <RelationshipForm busy={busy} onSave={(v) => run(() => query(Op.SET_RELATIONSHIP, { person: String(personId), relatedPerson: v.relatedPerson, label: v.label, notes: v.notes || undefined }), `The relationship ${v.label} was saved.`)} />}
      </section>
    </>
  );
}

type PointValues = { kind: Op.ContactPointKind; label: string; value: string; primary: boolean };

function PointForm(props: { id: string; legend: string; initial: PointValues; fixedKind?: boolean; submitLabel: string; busy: boolean; onSave: (v: PointValues) => Promise<boolean>; onCancel?: () => void }) {
  const { id, initial } = props;
  const [v, setV] = useState<PointValues>(initial);
  return (
    <form
      class="campus-add"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        // The server checks the value and answers Slate's message (e.g. an invalid email address).
        if ((await props.onSave(v)) && !props.onCancel) setV(initial);
      }}
    >
      <fieldset>
        <legend>{props.legend}</legend>
        {!props.fixedKind && (
          <div class="field">
            <label for={`${id}-kind`}>Kind</label>
            <select id={`${id}-kind`} value={v.kind} onChange={(e) => setV({ ...v, kind: e.currentTarget.value as Op.ContactPointKind })}>{KINDS.map((k) => <option key={k} value={k}>{k}</option>)}</select>
          </div>
        )}
        <div class="field">
          <label for={`${id}-label`}>Label</label>
          <input id={`${id}-label`} value={v.label} placeholder="Mobile Phone, Home Address…" onInput={(e) => setV({ ...v, label: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for={`${id}-value`}>Value</label>
          <input id={`${id}-value`} value={v.value} onInput={(e) => setV({ ...v, value: e.currentTarget.value })} />
        </div>
        {!['Network', 'Link'].includes(v.kind) && (
          <div class="field">
            <label><input type="checkbox" checked={v.primary} onChange={(e) => setV({ ...v, primary: e.currentTarget.checked })} /> Primary</label>
          </div>
        )}
        <button type="submit" disabled={props.busy}>{props.submitLabel}</button>
        {props.onCancel && <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>}
      </fieldset>
    </form>
  );
}

type RelationshipValues = { relatedPerson: string; label: string; notes: string };
const blankRelationship: RelationshipValues = { relatedPerson: '', label: '', notes: '' };

function RelationshipForm({ busy, onSave }: { busy: boolean; onSave: (v: RelationshipValues) => Promise<boolean> }) {
  const [v, setV] = useState(blankRelationship);
  const set = (name: keyof RelationshipValues) => (e: { currentTarget: { value: string } }) => setV({ ...v, [name]: e.currentTarget.value });
  return (
    <form
      class="campus-add"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onSave(v)) setV(blankRelationship);
      }}
    >
      <fieldset>
        <legend>Add or change a relationship</legend>
        <div class="field">
          <label for="relationship-person">Related person (ID or username)</label>
          <input id="relationship-person" value={v.relatedPerson} onInput={set('relatedPerson')} />
        </div>
        <div class="field">
          <label for="relationship-label">Is this person's</label>
          <input id="relationship-label" value={v.label} placeholder="mother, father, guardian, aunt…" onInput={set('label')} />
        </div>
        <div class="field">
          <label for="relationship-notes">Notes</label>
          <input id="relationship-notes" value={v.notes} onInput={set('notes')} />
        </div>
        <button type="submit" disabled={busy}>Save relationship</button>
      </fieldset>
    </form>
  );
}
