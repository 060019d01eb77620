// One kind's records, a page at a time, searched with Slate's search string (words, quotes,
// `qualifier:term`). The query and page live in the address (#/campus/people?q=ada&page=2), so
// back, forward and reload keep them. Records created, changed or deleted elsewhere are pushed
// (recordChanged) and the page is read again.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorText, Heading, Notice, useHandedOver, useRecordChanges, type CampusProps } from './common.tsx';
import type { KindDef, ListPage } from './kinds.ts';
import { atLeast } from './levels.ts';

export const PAGE_SIZE = 25;

type Props = CampusProps & { def: KindDef; params: URLSearchParams };

export function RecordList({ def, me, live, failure, params }: Props) {
  const q = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [list, setList] = useState<ListPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const deleted = useHandedOver(params, 'deleted');
  // One read at a time; a change pushed during a read asks for one more afterwards.
  const reading = useRef<{ busy: boolean; again: boolean; generation: number }>({ busy: false, again: false, generation: 0 });

  const read = () => {
    const state = reading.current;
    if (state.busy) {
      state.again = true;
      return;
    }
    state.busy = true;
    const generation = state.generation;
    def.list({ q: q || undefined, first: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }).then(
      (result) => {
        if (generation !== reading.current.generation) return;
        setList(result);
        setError(null);
      },
      (err: unknown) => generation === reading.current.generation && setError(failure(err)),
    ).finally(() => {
      if (generation !== reading.current.generation) return;
      state.busy = false;
      if (state.again) {
        state.again = false;
        read();
      }
    });
  };

  useEffect(() => {
    reading.current = { busy: false, again: false, generation: reading.current.generation + 1 };
    setList(null);
    setError(null);
    read();
  }, [def.route, q, page]);
  useRecordChanges(live, def.kind, () => read(), [def.route, q, page]);

  const go = (next: { q?: string; page?: number }) => {
    const search = new URLSearchParams();
    const nq = next.q ?? q;
    if (nq) search.set('q', nq);
    if ((next.page ?? 1) > 1) search.set('page', String(next.page));
    const tail = search.toString();
    location.hash = `#/campus/${def.route}${tail ? `?${tail}` : ''}`;
  };

  const lower = def.plural.toLowerCase();
  const from = (page - 1) * PAGE_SIZE + 1;
  const to = list ? from + list.rows.length - 1 : from;
  const lastPage = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;
  return (
    <section class="campus-list" data-kind={def.kind}>
      <div class="campus-head">
        <Heading>{def.plural}</Heading>
        {atLeast(me.level, def.create) && <a class="button" href={`#/campus/${def.route}/new`}>New {def.noun}</a>}
      </div>
      <form
        role="search"
        class="campus-search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim(), page: 1 });
        }}
      >
        <label for="campus-q">Search {lower}</label>
        <input id="campus-q" name="q" type="search" defaultValue={q} key={q} aria-describedby="campus-q-hint" autoComplete="off" />
        <button type="submit">Search</button>
        {q && <button type="button" class="link" onClick={() => go({ q: '', page: 1 })}>Clear the search</button>}
        <p id="campus-q-hint" class="hint">Every word must appear in a name, title, handle or code. Qualifiers narrow it: first:Ada, last:Lovelace, id:12, group:chess; "quoted words" stay together; mode:or for any word.</p>
      </form>
      <ErrorText message={error} />
      {error && def.browse && !atLeast(me.level, def.browse) && (
        <p class="hint">The list of {lower} is for {def.browse} accounts and above; yours is {me.level}. A record linked from elsewhere (a section's term, say) may still be open to you.</p>
      )}
      <Notice message={deleted && `“${deleted}” was deleted.`} />
      {list === null ? (
        !error && <p>Loading…</p>
      ) : (
        <>
          <p class="hint" role="status" data-total={list.total}>
            {list.total === 0
              ? q ? `No ${lower} match “${q}”.` : `There are no ${lower} you may see.`
              : `${list.total} ${list.total === 1 ? def.noun : lower}${q ? ` matching “${q}”` : ''}; showing ${from}–${to}.`}
          </p>
          {list.rows.length > 0 && (
            <table class="records">
              <caption class="visually-hidden">{def.plural}{q ? ` matching “${q}”` : ''}, page {page} of {lastPage}</caption>
              <thead>
                <tr><th scope="col">{def.kind === 'Person' ? 'Name' : 'Title'}</th>{def.columns.map((c) => <th key={c} scope="col">{c}</th>)}</tr>
              </thead>
              <tbody>
                {list.rows.map((r) => (
                  <tr key={r.id} data-record={r.id}>
                    <td data-label={def.kind === 'Person' ? 'Name' : 'Title'}><a href={`#/campus/${def.route}/${r.id}`}>{r.title || `#${r.id}`}</a></td>
                    {r.cells.map((c, i) => <td key={def.columns[i]} data-label={def.columns[i]}>{c || <span class="hint">—</span>}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {lastPage > 1 && (
            <nav class="pager" aria-label={`Pages of ${lower}`}>
              {page > 1 ? <button type="button" class="secondary" onClick={() => go({ page: page - 1 })}>Previous page</button> : <span />}
              <span>Page {page} of {lastPage}</span>
              {page < lastPage ? <button type="button" class="secondary" onClick={() => go({ page: page + 1 })}>Next page</button> : <span />}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
