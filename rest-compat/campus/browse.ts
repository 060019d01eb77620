// Slate's browse request (RecordsRequestHandler::handleBrowseRequest and the handlers'
// filters) read into the domain's options, and its envelope written back.
import type { Viewer } from '../../src/campus/auth.ts';
import { KINDS, type KindName, type KindSpec } from '../../src/campus/kinds.ts';
import { MAX_INT } from '../../src/campus/limits.ts';
import type { BrowseFilters, BrowseOptions, BrowseResult } from '../../src/campus/service.ts';
import { recordJson } from './serialize.ts';

/**
 * Slate's browse paging: a value that is not all digits is ignored (ctype_digit), and digits
 * past the range saturate as PHP's integer cast does (here at the 32-bit maximum).
 */
export const intParam = (v: string | null) => (v && /^\d+$/.test(v) ? Math.min(Number(v), MAX_INT) : undefined);

/** PHP's empty() on a request value: missing, '' and '0' are "not given". */
export const given = (v: string | null): string | undefined => (v === null || v === '' || v === '0' ? undefined : v);

/** Slate sorts ascending for a missing `dir` or `ASC`, descending for anything else; we also read `asc` as ascending. */
export const sortDir = (v: string | null): 'ASC' | 'DESC' => (!v || v.toUpperCase() === 'ASC' ? 'ASC' : 'DESC');

function filtersOf(kind: KindSpec, query: URLSearchParams): BrowseFilters {
  const f: BrowseFilters = {
    term: given(query.get('term')),
    course: given(query.get('course')),
    location: given(query.get('location')),
    schedule: given(query.get('schedule')),
    department: given(query.get('department')),
    enrolledUser: given(query.get('enrolled_user')),
    author: given(query.get('AuthorID')),
    query: given(query.get('query')),
    // Slate's people browse lists Disabled accounts only with `status=*`.
    activePeopleOnly: kind.name === 'Person' && query.get('status') !== '*',
  };
  if (kind.name === 'Group') {
    // Slate lists top-level groups unless `parentGroup` names one, or is `any`.
    const parent = given(query.get('parentGroup'));
    if (!parent) f.topLevel = true;
    else if (parent !== 'any') f.parentGroup = parent;
  }
  return f;
}

export function browseOptions(kind: KindSpec, query: URLSearchParams): BrowseOptions {
  return {
    // Blog posts default to 25 (Slate's BlogRequestHandler); `limit=0` is no limit.
    limit: intParam(query.get('limit')) ?? kind.browseLimit,
    offset: intParam(query.get('offset')),
    sort: given(query.get('sort')),
    dir: sortDir(query.get('dir')),
    q: given(query.get('q')),
    filters: filtersOf(kind, query),
  };
}

/** Slate's envelope: the records, the filters' records (Term, Course ...), `conditions`, `total`, `limit`, `offset` (false when not given). */
export function browseEnvelope(result: BrowseResult, data: unknown[], query: URLSearchParams, viewer: Viewer): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, record] of Object.entries(result.objects)) {
    const kind = name === 'EnrolledUser' ? KINDS.Person : KINDS[name as KindName];
    body[name] = recordJson(kind, record, viewer);
  }
  Object.assign(body, {
    success: true,
    data,
    conditions: Object.keys(result.conditions).length ? result.conditions : [],
    total: result.total,
    limit: result.limit ?? false,
    offset: intParam(query.get('offset')) ?? false,
  });
  const q = given(query.get('q'));
  if (q) body.query = q;
  return body;
}
