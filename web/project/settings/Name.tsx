// The project's name, as the switcher and the status page title show it: owners and managers
// rename it (renameProject); everyone else reads it.
import { useState } from 'preact/hooks';
import { query } from '../../lib/graphql.ts';
import { PROJECT_SETTINGS_RENAME } from '../operations.ts';
import { useChange } from './change.tsx';

interface Props {
  project: string;
  name: string;
  mayRename: boolean;
  onRenamed(name: string): Promise<void>;
  onRefused(): void;
}

export function NameSection({ project, name, mayRename, onRenamed, onRefused }: Props) {
  const [draft, setDraft] = useState(name);
  const { busy, run, messages } = useChange(onRefused);
  const submit = async (e: Event) => {
    e.preventDefault();
    await run(async () => {
      const { renameProject } = await query(PROJECT_SETTINGS_RENAME, { project, name: draft });
      setDraft(renameProject.name);
      await onRenamed(renameProject.name);
    }, 'The project was renamed.');
  };
  return (
    <section aria-labelledby="settings-name">
      <h2 id="settings-name">Name</h2>
      {mayRename ? (
        <form class="card settings-form" aria-label="Rename the project" onSubmit={submit}>
          <label for="project-name">Project name</label>
          <input id="project-name" value={draft} autocomplete="off" onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
          <div class="form-actions">
            <button type="submit" disabled={busy}>{busy ? 'Renaming…' : 'Rename'}</button>
          </div>
          {messages}
        </form>
      ) : (
        <dl class="card facts">
          <dt>Project name</dt>
          <dd data-setting="name">{name}</dd>
        </dl>
      )}
    </section>
  );
}
