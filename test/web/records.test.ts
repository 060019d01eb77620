// How the checks screens name the campus records linked to a check, and the list's filters and
// sort as the address keeps them (web/checks/records.ts, web/checks/filters.ts).
import { describe, expect, it } from 'vitest';
import { recordLabel, recordRef } from '../../web/checks/records.ts';
import { applyFilter, filterHash, NO_FILTER, readFilter } from '../../web/checks/filters.ts';
import type { CheckSummary } from '../../web/checks/operations.ts';

describe('recordLabel', () => {
  it('labels a record by its kind and the best name it has', () => {
    expect(recordLabel({ __typename: 'Course', databaseId: 1, title: 'Algebra', code: 'MATH' })).toBe('Course: Algebra');
    expect(recordLabel({ __typename: 'Section', databaseId: 2, sectionTitle: null, sectionCode: 'MATH-001' })).toBe('Section: MATH-001');
    expect(recordLabel({ __typename: 'Person', databaseId: 3, firstName: '', lastName: '', username: 'ada' })).toBe('Person: ada');
    expect(recordLabel({ __typename: 'BlogPost', databaseId: 4, title: '', handle: null })).toBe('Blog post: #4');
  });

  it('names a record for unlinking by its kind and ID', () => {
    expect(recordRef({ __typename: 'Group', databaseId: 7, name: 'Staff', handle: 'staff' })).toEqual({ kind: 'Group', handle: '7' });
  });
});

const check = (name: string, over: Partial<CheckSummary> = {}): CheckSummary => ({
  uuid: null, uniqueKey: name, name, slug: name, desc: '', status: 'UP', kind: 'SIMPLE', timeout: 3600, grace: 60, schedule: null, tz: null,
  lastPing: null, nextPing: null, tags: [], createdAt: '2026-01-01T00:00:00Z', records: [], ...over,
});

describe('list filters', () => {
  it('round-trips through the hash query, defaults left out', () => {
    const filter = { tag: 'prod', status: 'DOWN' as const, q: 'back up', sort: 'name' as const };
    expect(filterHash(filter)).toBe('#/checks?tag=prod&status=DOWN&q=back+up&sort=name');
    expect(readFilter(filterHash(filter))).toEqual(filter);
    expect(filterHash(NO_FILTER)).toBe('#/checks');
    expect(readFilter('#/')).toEqual(NO_FILTER);
    expect(readFilter('#/checks?status=nonsense&sort=nonsense')).toEqual(NO_FILTER);
  });

  it('filters by tag, status and words, and sorts with the missing times last', () => {
    const checks = [
      check('backup', { tags: ['prod'], status: 'DOWN', lastPing: '2026-01-02T00:00:00Z' }),
      check('Archive', { tags: ['prod'], lastPing: '2026-01-03T00:00:00Z' }),
      check('cleanup', { desc: 'removes backups' }),
    ];
    expect(applyFilter(checks, { ...NO_FILTER, tag: 'prod' }).map((c) => c.name)).toEqual(['backup', 'Archive']);
    expect(applyFilter(checks, { ...NO_FILTER, q: 'BACKUP' }).map((c) => c.name)).toEqual(['backup', 'cleanup']);
    expect(applyFilter(checks, { ...NO_FILTER, status: 'DOWN' }).map((c) => c.name)).toEqual(['backup']);
    expect(applyFilter(checks, { ...NO_FILTER, sort: 'name' }).map((c) => c.name)).toEqual(['Archive', 'backup', 'cleanup']);
    expect(applyFilter(checks, { ...NO_FILTER, sort: 'last-ping' }).map((c) => c.name)).toEqual(['Archive', 'backup', 'cleanup']);
    expect(applyFilter(checks, { ...NO_FILTER, sort: 'status' }).map((c) => c.name)).toEqual(['backup', 'Archive', 'cleanup']);
  });
});
