// The project's checks, live: filtered by tag, status and text and sorted as the address's hash
// query says (filters.ts), and for those who may write, which channels alert for each check,
// toggled in place.
// Live pushes change one check at a time, up to 50 a second (issue #25): a row renders only when
// its check (or what all rows share) changed, and the filter, sort and tag list are computed
// again only when the list or the filters changed.
import { Component } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { Status, STATUS_LABELS } from '../components/Status.tsx';
import { seconds, Time } from '../lib/format.ts';
import type { Live } from '../lib/live.ts';
import type { Session } from '../dashboard/session.ts';
import { allTags, applyFilter, filterHash, isFiltered, NO_FILTER, readFilter, SORTS, STATUSES, type ListFilter, type SortKey } from './filters.ts';
import { useChecks } from './use-checks.ts';
import { recordLabel } from './records.ts';
import { ChannelToggles } from './ChannelToggles.tsx';
import { rememberList } from './list-address.ts';
import type { CheckStatus, CheckSummary, ProjectChannel } from './operations.ts';

interface Props {
  session: Session;
  live: Live;
  hash: string;
  canEdit: boolean;
  onRefused?: () => void;
}

/** Filters change the address in place: each keystroke is no new history entry. */
function setFilter(next: ListFilter) {
  history.replaceState(history.state, '', `${location.pathname}${location.search}${filterHash(next)}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export const scheduleText = (c: Pick<CheckSummary, 'kind' | 'timeout' | 'schedule' | 'tz' | 'grace'>) =>
  c.kind === 'SIMPLE' ? `every ${seconds(c.timeout)}` : `${(c.schedule ?? '').replace(/\n/g, ' · ')} (${c.tz ?? 'UTC'})`;

export function ChecksList({ session, live, hash, canEdit, onRefused }: Props) {
  // Channels only where they can be toggled (a wall display shows none).
  const { checks, channels, error, patch } = useChecks(session, live, canEdit, onRefused);
  // One object while the address stays: the rows compare it by identity.
  const filter = useMemo(() => readFilter(hash), [hash]);
  useEffect(() => rememberList(hash.includes('?') ? hash : '#/checks'), [hash]);
  const update = (change: Partial<ListFilter>) => setFilter({ ...filter, ...change });
  const shown = useMemo(() => (checks ? applyFilter(checks, filter) : []), [checks, filter]);
  const tags = useSame(useMemo(() => (checks ? allTags(checks) : []), [checks]));
  const showRecords = useMemo(() => !!checks?.some((c) => c.records.length), [checks]);
  // A wall display shows no toggles, not even disabled ones: they would only crowd the rows.
  const showChannels = canEdit && !!channels?.length;

  return (
    <section class="checks-screen">
      <div class="heading">
        <h1>Checks</h1>
        {canEdit && <a class="button" href="#/checks/new">Add check</a>}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      <form class="filters" role="search" aria-label="Filter checks" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input type="search" value={filter.q} placeholder="name, slug, description" onInput={(e) => update({ q: (e.currentTarget as HTMLInputElement).value })} />
        </label>
        <label>
          Status
          <select value={filter.status} onChange={(e) => update({ status: (e.currentTarget as HTMLSelectElement).value as CheckStatus | '' })}>
            <option value="">Any status</option>
            {STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
          </select>
        </label>
        <label>
          Tag
          <select value={filter.tag} onChange={(e) => update({ tag: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">Any tag</option>
            {/* A tag from the address that no check has (yet) stays choosable. */}
            {(filter.tag && !tags.includes(filter.tag) ? [filter.tag, ...tags] : tags).map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <label>
          Sort by
          <select value={filter.sort} onChange={(e) => update({ sort: (e.currentTarget as HTMLSelectElement).value as SortKey })}>
            {Object.entries(SORTS).map(([key, label]) => <option key={key} value={key}>{label}</option>)}
          </select>
        </label>
        {isFiltered(filter) && <button type="button" class="link" onClick={() => setFilter({ ...NO_FILTER, sort: filter.sort })}>Clear filters</button>}
      </form>
      {checks === null ? (
        !error && <p>Loading…</p>
      ) : !checks.length ? (
        <p class="card">
          No checks yet.{' '}
          {canEdit ? <>Add one with the button above, the API (<code>POST /api/v3/checks/</code>) or the <code>createCheck</code> mutation; it appears here at once.</> : 'They appear here as soon as they are added.'}
        </p>
      ) : (
        <>
          <p class="hint" role="status" data-shown={shown.length}>
            {isFiltered(filter) ? `${shown.length} of ${checks.length} checks match.` : `${checks.length} ${checks.length === 1 ? 'check' : 'checks'}.`}
          </p>
          {shown.length > 0 && (
            // The columns' widths are set by how many there are (checks.css).
            <table class={`checks${showRecords ? ' with-records' : ''}${showChannels ? ' with-alerts' : ''}`}>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Status</th>
                  <th>Last ping</th>
                  <th>Next ping</th>
                  <th>Tags</th>
                  {showRecords && <th>Records</th>}
                  {showChannels && <th>Alerts</th>}
                </tr>
              </thead>
              <tbody>
                {shown.map((c) => (
                  <CheckRow key={c.uniqueKey} check={c} filter={filter} showRecords={showRecords} channels={showChannels ? channels : null} session={session} patch={patch} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

/** `value`, or the previous one when it holds the same items: a tag list that did not change keeps its identity. */
function useSame<T>(value: readonly T[]): readonly T[] {
  const last = useRef(value);
  if (last.current !== value && (last.current.length !== value.length || value.some((v, i) => v !== last.current[i]))) last.current = value;
  return last.current;
}

interface RowProps {
  check: CheckSummary;
  filter: ListFilter;
  showRecords: boolean;
  /** The project's channels when the row shows its toggles. */
  channels: ProjectChannel[] | null;
  session: Session;
  patch(uniqueKey: string, change: Partial<CheckSummary>): void;
}

/**
 * One check's row. Renders only when one of its props changed (by identity): the list keeps the
 * objects of checks that did not change, and the list screen passes nothing made anew per render.
 */
class CheckRow extends Component<RowProps> {
  shouldComponentUpdate(next: RowProps) {
    const now = this.props;
    return next.check !== now.check || next.filter !== now.filter || next.showRecords !== now.showRecords || next.channels !== now.channels || next.session !== now.session || next.patch !== now.patch;
  }

  render({ check: c, filter, showRecords, channels, session, patch }: RowProps) {
    return (
      <tr data-check={c.name}>
        <td data-label="Name">
          <a href={`#/checks/${c.uniqueKey}`}>{c.name || '(unnamed)'}</a>
          <span class="hint sub">{scheduleText(c)}</span>
        </td>
        <td data-label="Status"><Status status={c.status} /></td>
        <td data-label="Last ping"><Time iso={c.lastPing} never="never" /></td>
        <td data-label="Next ping"><Time iso={c.nextPing} /></td>
        <td data-label="Tags">
          {c.tags.map((t) => (
            <a class="tag" key={t} href={filterHash({ ...filter, tag: t })} aria-label={`Only checks tagged ${t}`} aria-current={filter.tag === t ? 'true' : undefined}>{t}</a>
          ))}
        </td>
        {showRecords && <td data-label="Records" class="records">{c.records.map((r, i) => <span class="tag record" key={i}>{recordLabel(r)}</span>)}</td>}
        {channels && (
          <td data-label="Alerts">
            <details class="alerts">
              <summary aria-label={`Alerts for ${c.name || 'this check'}: ${c.channels?.length ?? 0} of ${channels.length} channels`}>
                {c.channels?.length ?? 0} of {channels.length}
              </summary>
              <ChannelToggles session={session} check={c} channels={channels} onChanged={(saved) => patch(c.uniqueKey, { channels: saved })} />
            </details>
          </td>
        )}
      </tr>
    );
  }
}
