// A blog post's or page's body: shown on its record page (the items' HTML), and edited on its
// edit page, where a writer adds, removes, reorders and rewrites Markdown items. Items of other
// classes (RichText, Embed, Media from Slate's editor or REST) are kept, moved and removed as
// they are; only Markdown is written here. Saving sends the whole list (setContentItems): items
// left out are marked Deleted on the server, as Slate's save does.
import { useEffect, useRef, useState } from 'preact/hooks';
import { query } from '../lib/graphql.ts';
import * as Op from './content-operations.ts';

type ContentKind = 'BlogPost' | 'Page';

async function loadItems(kind: ContentKind, id: number): Promise<Op.ContentItemRow[] | null> {
  if (kind === 'BlogPost') return (await query(Op.BLOG_POST_ITEMS, { id: String(id) })).blogPost?.items ?? null;
  return (await query(Op.PAGE_ITEMS, { id: String(id) })).page?.items ?? null;
}

const MARKDOWN = 'Emergence\\CMS\\Item\\Markdown';
const shortClass = (cls: string) => cls.replace(/^.*\\/, '');

/** The post's body on its page, by the record's global `id`; `version` changes when the record is read again (a live change). */
export function ContentItemsView({ nodeId, version }: { nodeId: string; version: unknown }) {
  const [items, setItems] = useState<Array<{ databaseId: number; html: string }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    query(Op.CONTENT_ITEMS, { id: nodeId }).then(
      (data) => live && (setItems(data.node && 'items' in data.node ? data.node.items : []), setError(null)),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => void (live = false);
  }, [nodeId, version]);
  if (error) return <p class="error" role="alert">The body could not be loaded: {error}</p>;
  if (!items) return <p class="hint">Loading the body…</p>;
  if (!items.length) return <p class="hint content-body-empty">No body yet.</p>;
  // The server renders and sanitizes each item's HTML (no script, event handlers or
  // javascript: URLs; frames only from a few known players): safe to insert as it comes.
  return <div class="content-body" data-items={items.length} dangerouslySetInnerHTML={{ __html: items.map((i) => i.html).join('') }} />;
}

interface Draft {
  /** A stable key for the list (the item's ID, or a local one for a new item). */
  key: string;
  databaseId: number | null;
  cls: string;
  text: string;
  /** A Markdown item's text as loaded (unchanged text is not sent again). */
  original: string | null;
  summary: string;
}

const draftOf = (item: Op.ContentItemRow): Draft => {
  const data: unknown = JSON.parse(item.data);
  const text = typeof data === 'string' ? data : '';
  return { key: `i${item.databaseId}`, databaseId: item.databaseId, cls: item.class, text, original: item.class === MARKDOWN ? text : null, summary: item.title ?? (text.slice(0, 80) || shortClass(item.class)) };
};

/** The body editor on a post's or page's edit page (a form of its own: it saves the items only). */
export function ContentItemsEditor({ kind, id, failure }: { kind: ContentKind; id: number; failure: (err: unknown) => string }) {
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = useRef(0);

  const load = async () => {
    try {
      setDrafts(((await loadItems(kind, id)) ?? []).map(draftOf));
    } catch (err) {
      setError(failure(err));
    }
  };
  useEffect(() => void load(), [kind, id]);

  const change = (f: (list: Draft[]) => Draft[]) => {
    setNotice(null);
    setDrafts((list) => (list ? f(list) : list));
  };
  const move = (i: number, by: number) =>
    change((list) => {
      const to = i + by;
      if (to < 0 || to >= list.length) return list;
      const copy = [...list];
      [copy[i], copy[to]] = [copy[to]!, copy[i]!];
      return copy;
    });

  const save = async (event: Event) => {
    event.preventDefault();
    if (!drafts || busy) return;
    setBusy(true);
    setError(null);
    try {
      const items: Op.ContentItemInput[] = drafts.map((d, i) => {
        const item: Op.ContentItemInput = { order: i + 1 };
        if (d.databaseId) item.databaseId = d.databaseId;
        else item.class = 'Markdown';
        if (d.cls === MARKDOWN && (!d.databaseId || d.text !== d.original)) item.text = d.text;
        return item;
      });
      const saved = (await query(Op.SET_CONTENT_ITEMS, { content: String(id), items })).setContentItems;
      setDrafts(saved.map(draftOf));
      setNotice('The body was saved.');
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };

  if (!drafts) return error ? <p class="error" role="alert">{error}</p> : <p class="hint">Loading the body…</p>;
  return (
    <section class="content-items-editor" aria-label="Body">
      <h2>Body</h2>
      <p class="hint">Markdown items are shown in this order. Other kinds of items are kept as they are.</p>
      <form class="card" noValidate onSubmit={save}>
        {drafts.length === 0 && <p class="hint">No items yet.</p>}
        <ol class="content-items">
          {drafts.map((d, i) => (
            <li key={d.key} data-item={d.databaseId ?? 'new'}>
              {d.cls === MARKDOWN ? (
                <>
                  <label for={`item-${d.key}`}>Markdown item {i + 1}</label>
                  <textarea id={`item-${d.key}`} rows={6} value={d.text} onInput={(e) => {
                    const text = (e.currentTarget as HTMLTextAreaElement).value;
                    change((list) => list.map((x) => (x.key === d.key ? { ...x, text } : x)));
                  }} />
                </>
              ) : (
                <p>{shortClass(d.cls)} item {i + 1}: <span class="hint">{d.summary}</span></p>
              )}
              <span class="actions">
                <button type="button" class="secondary" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move item ${i + 1} up`}>Up</button>{' '}
                <button type="button" class="secondary" disabled={i === drafts.length - 1} onClick={() => move(i, 1)} aria-label={`Move item ${i + 1} down`}>Down</button>{' '}
                <button type="button" class="secondary" onClick={() => change((list) => list.filter((x) => x.key !== d.key))} aria-label={`Remove item ${i + 1}`}>Remove</button>
              </span>
            </li>
          ))}
        </ol>
        <button type="button" class="secondary" onClick={() => change((list) => [...list, { key: `n${next.current++}`, databaseId: null, cls: MARKDOWN, text: '', original: null, summary: '' }])}>
          Add a Markdown item
        </button>
        {error && <p class="error" role="alert">{error}</p>}
        {notice && <p class="notice" role="status">{notice}</p>}
        <div class="form-actions">
          <button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save body'}</button>
        </div>
      </form>
    </section>
  );
}
