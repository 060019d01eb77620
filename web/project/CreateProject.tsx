// A new project, owned by the person who creates it. It has no API keys until they make some
// (API keys screen): people sign in, programs use keys.
import { useState } from 'preact/hooks';
import { messageOf, query } from '../lib/graphql.ts';
import { CREATE_PROJECT } from './operations.ts';

export function CreateProject({ first, onCreated }: { first: boolean; onCreated: (uuid: string) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '').trim();
    if (!name) return setError('Give the project a name.');
    setBusy(true);
    setError(null);
    try {
      const { createProject } = await query(CREATE_PROJECT, { name });
      await onCreated(createProject.uuid);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <section class="narrow-section">
      <h1>{first ? 'Create your first project' : 'New project'}</h1>
      {first && <p class="hint">A project holds checks, their notification channels and the people who look after them. You will be its owner.</p>}
      <form class="card" onSubmit={submit}>
        <label for="project-name">Project name</label>
        <input id="project-name" name="name" required maxLength={100} />
        <button type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create project'}</button>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </section>
  );
}
