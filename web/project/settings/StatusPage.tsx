// The project's public status page (/status/<slug>): anyone who may change checks publishes it,
// limits it to some tags, or withdraws it (setStatusPage; the server refuses read-only members).
// The page shows check names and statuses only, to anyone with the address.
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../../components/Confirm.tsx';
import { query } from '../../lib/graphql.ts';
import { PROJECT_SETTINGS_STATUS_PAGE, type ProjectSettingsData } from '../operations.ts';
import { useChange } from './change.tsx';
import { CopyField } from './CopyField.tsx';

type Settings = ProjectSettingsData['statusPage'];

interface Props {
  project: string;
  projectName: string;
  statusPage: Settings;
  mayChange: boolean;
  onChanged(settings: Settings): void;
  onRefused(): void;
}

/** A first suggestion from the project's name; the server has the last word on what a slug may be. */
const suggestSlug = (name: string) =>
  name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');

const tagList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function StatusPageSection({ project, projectName, statusPage, mayChange, onChanged, onRefused }: Props) {
  const [slug, setSlug] = useState(statusPage?.slug ?? suggestSlug(projectName));
  const [tags, setTags] = useState(statusPage?.tags.join(' ') ?? '');
  const { busy, run, messages } = useChange(onRefused);

  const save = (next: { slug: string | null; tags: string[] }, message: string) =>
    run(async () => {
      const { setStatusPage } = await query(PROJECT_SETTINGS_STATUS_PAGE, { project, ...next });
      const saved = setStatusPage.statusPage ?? null;
      if (saved) {
        setSlug(saved.slug);
        setTags(saved.tags.join(' '));
      }
      onChanged(saved);
    }, message);
  const submit = (e: Event) => {
    e.preventDefault();
    void save({ slug, tags: tagList(tags) }, statusPage ? 'The status page was saved.' : 'The status page is published.');
  };

  const published = statusPage && (
    <p class="status-link">
      Published at <a href={statusPage.url} data-setting="status-url">{statusPage.url}</a>
    </p>
  );
  const limits = statusPage && (statusPage.tags.length ? `Checks tagged ${statusPage.tags.join(', ')}` : 'Every check');

  return (
    <section aria-labelledby="settings-status-page">
      <h2 id="settings-status-page">Status page</h2>
      <p class="hint">A public page with the names and statuses of the project’s checks (no URLs, keys or tags), for anyone with its address.</p>
      {mayChange ? (
        <form class="card settings-form" aria-label="Status page" onSubmit={submit}>
          {published ?? <p>Not published.</p>}
          {statusPage && <CopyField id="status-page-url" label="Status page address" value={statusPage.url} />}
          <label for="status-slug">Address: /status/…</label>
          <input id="status-slug" value={slug} autocomplete="off" spellcheck={false} aria-describedby="status-slug-hint" onInput={(e) => setSlug((e.currentTarget as HTMLInputElement).value)} />
          <span id="status-slug-hint" class="hint">Lower-case letters, digits and hyphens.</span>
          <label for="status-tags">Only checks tagged</label>
          <input id="status-tags" value={tags} autocomplete="off" spellcheck={false} aria-describedby="status-tags-hint" onInput={(e) => setTags((e.currentTarget as HTMLInputElement).value)} />
          <span id="status-tags-hint" class="hint">Tags separated by spaces; empty lists every check.</span>
          <div class="form-actions">
            <button type="submit" disabled={busy}>{statusPage ? 'Save status page' : 'Publish status page'}</button>
            {statusPage && (
              <ConfirmButton label="Withdraw" name="Withdraw the status page" question="Its address stops working. Withdraw it?" disabled={busy} onConfirm={() => save({ slug: null, tags: [] }, 'The status page was withdrawn.')} />
            )}
          </div>
          {messages}
        </form>
      ) : (
        <dl class="card facts">
          <dt>Status page</dt>
          <dd data-setting="status-page">{statusPage ? <a href={statusPage.url}>{statusPage.url}</a> : 'Not published'}</dd>
          {limits && <><dt>Lists</dt><dd>{limits}</dd></>}
        </dl>
      )}
    </section>
  );
}
