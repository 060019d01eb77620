// The list's filters and sort live in the address's hash query (`#/checks?tag=prod&status=DOWN&
// q=back&sort=name`): a reload, a shared link or coming back from a check's page shows the same
// list. Pure functions here; the screen reads and writes the hash.
import type { CheckStatus, CheckSummary } from './operations.ts';

export const SORTS = {
  created: 'Oldest first',
  name: 'Name',
  status: 'Status (down first)',
  'last-ping': 'Last ping (newest first)',
  'next-ping': 'Next ping (soonest first)',
} as const;
export type SortKey = keyof typeof SORTS;

export const STATUSES: CheckStatus[] = ['DOWN', 'GRACE', 'UP', 'NEW', 'PAUSED'];

export interface ListFilter {
  tag: string;
  status: CheckStatus | '';
  q: string;
  sort: SortKey;
}

export const NO_FILTER: ListFilter = { tag: '', status: '', q: '', sort: 'created' };

export function readFilter(hash: string): ListFilter {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const status = params.get('status')?.toUpperCase() ?? '';
  const sort = params.get('sort') ?? '';
  return {
    tag: params.get('tag') ?? '',
    status: (STATUSES as string[]).includes(status) ? (status as CheckStatus) : '',
    q: params.get('q') ?? '',
    sort: sort in SORTS ? (sort as SortKey) : 'created',
  };
}

/** The list's address for `filter`: `#/checks`, with a query only for what is not the default. */
export function filterHash(filter: ListFilter): string {
  const params = new URLSearchParams();
  if (filter.tag) params.set('tag', filter.tag);
  if (filter.status) params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  if (filter.sort !== 'created') params.set('sort', filter.sort);
  const query = params.toString();
  return query ? `#/checks?${query}` : '#/checks';
}

export const isFiltered = (f: ListFilter) => f.tag !== '' || f.status !== '' || f.q.trim() !== '';

// Attention first: what is down, then late, then the rest.
const STATUS_ORDER: Record<CheckStatus, number> = { DOWN: 0, GRACE: 1, UP: 2, NEW: 3, PAUSED: 4 };
const byName = (a: CheckSummary, b: CheckSummary) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
/** Missing times last, whichever way the rest is sorted. */
const byTime = (a: string | null, b: string | null, newestFirst: boolean) => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return newestFirst ? b.localeCompare(a) : a.localeCompare(b);
};

export function applyFilter(checks: readonly CheckSummary[], filter: ListFilter): CheckSummary[] {
  const words = filter.q.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = checks.filter(
    (c) =>
      (!filter.tag || c.tags.includes(filter.tag)) &&
      (!filter.status || c.status === filter.status) &&
      words.every((word) => `${c.name} ${c.slug} ${c.desc} ${c.tags.join(' ')}`.toLowerCase().includes(word)),
  );
  const sorted = [...shown];
  switch (filter.sort) {
    case 'name':
      return sorted.sort(byName);
    case 'status':
      return sorted.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || byName(a, b));
    case 'last-ping':
      return sorted.sort((a, b) => byTime(a.lastPing, b.lastPing, true) || byName(a, b));
    case 'next-ping':
      return sorted.sort((a, b) => byTime(a.nextPing, b.nextPing, false) || byName(a, b));
    default:
      return sorted;
  }
}

/** Every tag of the project's checks, sorted (the tag filter's choices). */
export const allTags = (checks: readonly CheckSummary[]) => [...new Set(checks.flatMap((c) => c.tags))].sort((a, b) => a.localeCompare(b));
