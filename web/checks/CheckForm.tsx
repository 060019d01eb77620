// Every field of CheckInput but `channels` (toggled on their own) and `unique` (an API upsert):
// the same form adds a check and edits one. The server validates (its messages are shown); the
// form only keeps the browser from sending what cannot be right.
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../lib/graphql.ts';
import type { CheckFields, CheckInput } from './operations.ts';
import { ScheduleEditor, viewerZone, type ScheduleValues } from './ScheduleEditor.tsx';

export interface CheckValues extends ScheduleValues {
  name: string;
  slug: string;
  /** Space-separated, as stored. */
  tags: string;
  desc: string;
  manualResume: boolean;
  methods: 'ANY' | 'POST';
  filterSubject: boolean;
  filterBody: boolean;
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
}

/** Healthchecks' defaults for a new check: a day's period, an hour's grace. */
export const newCheckValues = (): CheckValues => ({
  name: '',
  slug: '',
  tags: '',
  desc: '',
  kind: 'SIMPLE',
  timeout: 86400,
  grace: 3600,
  schedule: '0 * * * *',
  tz: viewerZone(),
  manualResume: false,
  methods: 'ANY',
  filterSubject: false,
  filterBody: false,
  filterHttpBody: false,
  filterDefaultFail: false,
  startKw: '',
  successKw: '',
  failureKw: '',
});

export const valuesOf = (c: CheckFields): CheckValues => ({
  name: c.name,
  slug: c.slug,
  tags: c.tagsString,
  desc: c.desc,
  kind: c.kind,
  timeout: c.timeout ?? 86400,
  grace: c.grace,
  schedule: c.schedule ?? '0 * * * *',
  tz: c.tz ?? 'UTC',
  manualResume: c.manualResume,
  methods: c.methods,
  filterSubject: c.filterSubject,
  filterBody: c.filterBody,
  filterHttpBody: c.filterHttpBody,
  filterDefaultFail: c.filterDefaultFail,
  startKw: c.startKw,
  successKw: c.successKw,
  failureKw: c.failureKw,
});

/** The input for createCheck/updateCheck: a period makes a simple check, a schedule a cron one. */
export function inputOf(v: CheckValues): CheckInput {
  const { kind, timeout, schedule, tz, ...rest } = v;
  return { ...rest, tags: v.tags.trim().split(/\s+/).filter(Boolean).join(' '), ...(kind === 'SIMPLE' ? { timeout } : { schedule: kind === 'CRON' ? schedule.trim() : schedule.trim().replace(/\r\n/g, '\n'), tz }) };
}

/** Django's slugify, as Healthchecks derives a slug from a name. */
export const slugify = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');

interface Props {
  initial: CheckValues;
  /** A new check's slug follows its name until the slug is typed in. */
  creating?: boolean;
  onSave(input: CheckInput): Promise<void>;
  /** "Saved." after a save (an edited check stays on its page). */
  savedNotice?: boolean;
}

export function CheckForm({ initial, creating = false, onSave, savedNotice = false }: Props) {
  const [values, setValues] = useState<CheckValues>(initial);
  const [slugTyped, setSlugTyped] = useState(!creating);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [dirty, setDirty] = useState(false);
  // The check changed on the server (a save's result, a record linked, another person's edit):
  // the form shows it, unless the person has unsaved changes (theirs win until they save).
  const server = JSON.stringify(initial);
  useEffect(() => {
    if (!dirty) setValues(initial);
  }, [server]);
  const set = (change: Partial<CheckValues>) => {
    setSaved(false);
    setDirty(true);
    setValues((v) => ({ ...v, ...change, ...(!slugTyped && change.name !== undefined ? { slug: slugify(change.name) } : {}) }));
  };
  const text = (field: 'name' | 'slug' | 'tags' | 'desc' | 'startKw' | 'successKw' | 'failureKw') => ({
    value: values[field],
    onInput: (e: Event) => set({ [field]: (e.currentTarget as HTMLInputElement).value }),
  });
  const flag = (field: 'manualResume' | 'filterSubject' | 'filterBody' | 'filterHttpBody' | 'filterDefaultFail') => ({
    checked: values[field],
    onChange: (e: Event) => set({ [field]: (e.currentTarget as HTMLInputElement).checked }),
  });
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await onSave(inputOf(values));
      setDirty(false);
      setSaved(savedNotice);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card check-form" onSubmit={submit} aria-busy={busy}>
      <div class="field">
        <label for="check-name">Name</label>
        <input id="check-name" {...text('name')} autocomplete="off" />
      </div>
      <div class="field">
        <label for="check-slug">Slug</label>
        <input
          id="check-slug"
          class="mono"
          value={values.slug}
          autocomplete="off"
          spellcheck={false}
          aria-describedby="check-slug-hint"
          onInput={(e) => {
            setSlugTyped(true);
            set({ slug: (e.currentTarget as HTMLInputElement).value });
          }}
        />
        <span class="hint" id="check-slug-hint">For ping URLs by name: <code>/ping/&lt;ping key&gt;/{values.slug || 'slug'}</code>. Lowercase letters, digits, - and _.</span>
      </div>
      <div class="field">
        <label for="check-tags">Tags</label>
        <input id="check-tags" {...text('tags')} autocomplete="off" spellcheck={false} aria-describedby="check-tags-hint" />
        <span class="hint" id="check-tags-hint">Separated by spaces, e.g. <code>prod backup</code>.</span>
      </div>
      <div class="field">
        <label for="check-desc">Description</label>
        <textarea id="check-desc" rows={3} value={values.desc} onInput={(e) => set({ desc: (e.currentTarget as HTMLTextAreaElement).value })} />
      </div>
      <ScheduleEditor values={values} onChange={set} />
      <details class="more-settings">
        <summary>More settings: ping methods, manual resume, keyword rules</summary>
        <div class="field">
          <label for="check-methods">Pings accepted</label>
          <select id="check-methods" value={values.methods} onChange={(e) => set({ methods: (e.currentTarget as HTMLSelectElement).value as CheckValues['methods'] })}>
            <option value="ANY">HEAD, GET and POST</option>
            <option value="POST">POST only (ignore HEAD and GET, e.g. link previews)</option>
          </select>
        </div>
        <label class="check-option">
          <input type="checkbox" {...flag('manualResume')} /> Resume by hand only: once down, the check ignores pings until someone resumes it
        </label>
        <fieldset>
          <legend>Keyword rules</legend>
          <p class="hint">A ping whose text contains a keyword counts as a start, a success or a failure. Several keywords: separate them with commas.</p>
          <label class="check-option"><input type="checkbox" {...flag('filterSubject')} /> Look in the subject of emails</label>
          <label class="check-option"><input type="checkbox" {...flag('filterBody')} /> Look in the body of emails</label>
          <label class="check-option"><input type="checkbox" {...flag('filterHttpBody')} /> Look in the body of HTTP pings</label>
          <div class="field"><label for="check-start-kw">Start keywords</label><input id="check-start-kw" {...text('startKw')} autocomplete="off" /></div>
          <div class="field"><label for="check-success-kw">Success keywords</label><input id="check-success-kw" {...text('successKw')} autocomplete="off" /></div>
          <div class="field"><label for="check-failure-kw">Failure keywords</label><input id="check-failure-kw" {...text('failureKw')} autocomplete="off" /></div>
          <label class="check-option"><input type="checkbox" {...flag('filterDefaultFail')} /> A ping that matches no keyword is a failure (else a success)</label>
        </fieldset>
      </details>
      <div class="form-actions">
        <button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
        {saved && <span class="notice" role="status">Saved.</span>}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
