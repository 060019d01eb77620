// A section's connector mappings (Slate's Section `Mappings`): which external record each
// connector knows it as. Shown to Staff; Administrators add and delete them (the server's rule).
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { query } from '../lib/graphql.ts';
import { ErrorText, Notice, useLoaded } from './common.tsx';
import { atLeast, type Me } from './levels.ts';
import * as Op from './notes-operations.ts';

interface Props {
  sectionId: number;
  me: Me;
  failure: (err: unknown) => string;
}

export function SectionMappings(props: Props) {
  return atLeast(props.me.level, 'Staff') ? <MappingsPanel {...props} /> : null;
}

const empty = { connector: '', externalKey: '', externalIdentifier: '' };

function MappingsPanel({ sectionId, me, failure }: Props) {
  const admin = atLeast(me.level, 'Administrator');
  // Each change reads the mappings again: what shows is what was stored.
  const { value: rows, error, done, busy, run } = useLoaded(async () => (await query(Op.SECTION_MAPPINGS, { id: String(sectionId) })).section?.mappings ?? [], failure, [sectionId]);
  const [values, setValues] = useState(empty);
  const set = (name: keyof typeof empty) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [name]: e.currentTarget.value });

  return (
    <section class="related" aria-label="Connector mappings">
      <h2>Connector mappings {rows && <span class="hint">({rows.length})</span>}</h2>
      <ErrorText message={error} />
      <Notice message={done} />
      {rows === undefined ? (
        !error && <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p class="hint">No connector knows this section yet.</p>
      ) : (
        <table class="records mappings">
          <caption class="visually-hidden">Connector mappings of this section</caption>
          <thead><tr><th scope="col">Connector</th><th scope="col">Key</th><th scope="col">Identifier</th><th scope="col">Source</th>{admin && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr></thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.databaseId} data-mapping={m.databaseId}>
                <td data-label="Connector">{m.connector}</td>
                <td data-label="Key">{m.externalKey}</td>
                <td data-label="Identifier">{m.externalIdentifier}</td>
                <td data-label="Source">{m.source}</td>
                {admin && (
                  <td class="actions">
                    <ConfirmButton label="Delete" name={`Delete the mapping ${m.connector} ${m.externalIdentifier}`} question={`Delete the ${m.connector} mapping ${m.externalKey} ${m.externalIdentifier}?`} disabled={busy} onConfirm={() => run(() => query(Op.DELETE_MAPPING, { id: String(m.databaseId) }), `The ${m.connector} mapping was deleted.`)} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form
          class="campus-add"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const ok = await run(() => query(Op.CREATE_MAPPING, { kind: 'Section', record: String(sectionId), input: values }), `${values.connector} ${values.externalIdentifier} now maps to this section.`);
            if (ok) setValues(empty);
          }}
        >
          <fieldset>
            <legend>Add a connector mapping</legend>
            <div class="field"><label for="mapping-connector">Connector</label><input id="mapping-connector" maxLength={25} value={values.connector} onInput={set('connector')} /></div>
            <div class="field"><label for="mapping-key">Key</label><input id="mapping-key" maxLength={25} value={values.externalKey} onInput={set('externalKey')} /></div>
            <div class="field"><label for="mapping-identifier">Identifier</label><input id="mapping-identifier" value={values.externalIdentifier} onInput={set('externalIdentifier')} /></div>
            <button type="submit" disabled={busy}>Add mapping</button>
            <p class="hint">An identifier another section has is moved to this one.</p>
          </fieldset>
        </form>
      )}
    </section>
  );
}
