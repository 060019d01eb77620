// The project's API keys: which exist, a new one (shown this once: the server keeps only its
// hash), and revoking one. Creating a key that exists replaces it; programs using the old one
// are refused from then on.
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/Confirm.tsx';
import { messageOf, query } from '../lib/graphql.ts';
import type { Session } from '../dashboard/session.ts';
import { CREATE_KEY, KEYS, REVOKE_KEY, type KeyKind, type KeyRow } from './operations.ts';
import { CopyField } from './settings/CopyField.tsx';

const USES: Record<KeyKind, string> = {
  READ_WRITE: 'The Management API and GraphQL: create, change and delete checks and channels.',
  READ_ONLY: 'Reading only: a wall display, a status script.',
  PING: 'Slug ping URLs: /ping/<key>/<slug>.',
};

export function Keys({ session }: { session: Session }) {
  const project = session.project!;
  const [keys, setKeys] = useState<KeyRow[] | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const load = async () => {
    try {
      setKeys((await query(KEYS, { project })).project.keys);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), [project]);

  const act = async (what: () => Promise<void>) => {
    setError(null);
    setDone(null);
    setCreated(null);
    try {
      await what();
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const create = (k: KeyRow) =>
    act(async () => {
      const { createProjectKey } = await query(CREATE_KEY, { project, kind: k.kind });
      setCreated({ name: k.name, key: createProjectKey });
    });
  const revoke = (k: KeyRow) =>
    act(async () => {
      await query(REVOKE_KEY, { project, kind: k.kind });
      setDone(`The ${k.name} was revoked.`);
    });

  return (
    <section>
      <h1>API keys</h1>
      <p class="hint">Programs use keys; people sign in. A key is shown once, when it is created: keep it somewhere safe.</p>
      {error && <p class="error" role="alert">{error}</p>}
      {done && <p class="notice" role="status">{done}</p>}
      {created && (
        <div class="card shown-once" role="region" aria-label="New key">
          <CopyField id="new-key" label={`New ${created.name}`} value={created.key} />
          <p class="hint">Copy it now: it is not shown again.</p>
        </div>
      )}
      {keys === null ? <p>Loading…</p> : (
        <table class="keys">
          <thead><tr><th>Key</th><th>Use</th><th>State</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.kind} data-key={k.kind}>
                <td>{k.name}</td>
                <td class="hint">{USES[k.kind]}</td>
                <td>{k.exists ? 'exists' : 'none'}</td>
                <td class="actions">
                  {k.exists ? (
                    <>
                      <ConfirmButton label="Replace" name={`Replace the ${k.name}`} question="The old key stops working. Replace it?" onConfirm={() => create(k)} />{' '}
                      <ConfirmButton label="Revoke" name={`Revoke the ${k.name}`} question="Programs using it are refused from now on. Revoke it?" onConfirm={() => revoke(k)} />
                    </>
                  ) : (
                    <button type="button" aria-label={`Create the ${k.name}`} onClick={() => void create(k)}>Create</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
