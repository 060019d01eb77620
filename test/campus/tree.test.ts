// Trees through ParentID (terms, locations, groups): pre-order as Slate's nested-set Left order,
// subtrees, ancestors, a term's related terms and full paths, read from a real database.
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import { ancestorIds, fullPaths, preorderRank, relatedIds, subtreeIds, subtreesOf } from '../../src/campus/tree.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();
let staff: Viewer;
const id: Record<string, number> = {};
const tid: Record<string, number> = {};

beforeAll(async () => {
  staff = await viewerAt(w, 'Staff');
  // School ─┬─ Upper ─┬─ Class of 2030
  //         │         └─ Class of 2031 (Hidden)
  //         └─ Lower ─── Class of 2040
  // Clubs (a second root)
  const g = async (Name: string, parent?: string, Status = 'Live') => (id[Name] = (await record(w, staff, 'Group', { Name, Status, ...(parent ? { ParentID: id[parent] } : {}) })).ID);
  await g('School');
  await g('Clubs');
  await g('Upper', 'School');
  await g('Lower', 'School');
  await g('Class of 2030', 'Upper');
  await g('Class of 2031', 'Upper', 'Hidden');
  await g('Class of 2040', 'Lower');
  // Year ─┬─ Fall ─── Fall Q1
  //       └─ Spring
  const t = async (Title: string, parent?: string) => (tid[Title] = (await record(w, staff, 'Term', { Title, ...(parent ? { ParentID: tid[parent] } : {}) })).ID);
  await t('Year');
  await t('Fall', 'Year');
  await t('Spring', 'Year');
  await t('Fall Q1', 'Fall');
});

/** The names of group (or, given `tid`, term) IDs, sorted. */
const names = (ids: Iterable<number>, of = id) => [...ids].map((i) => Object.keys(of).find((k) => of[k] === i)).sort();

describe('preorderRank', () => {
  it('ranks each record after its parent and before its next sibling, siblings oldest first', async () => {
    const rank = await preorderRank(campusDeps(w), KINDS.Group);
    const order = [...rank.entries()].sort((a, b) => a[1] - b[1]).map(([i]) => names([i])[0]);
    expect(order).toEqual(['School', 'Upper', 'Class of 2030', 'Class of 2031', 'Lower', 'Class of 2040', 'Clubs']);
  });
});

describe('subtreeIds and subtreesOf', () => {
  it('give the record and every descendant', async () => {
    expect(names(await subtreeIds(campusDeps(w), KINDS.Group, id.School!))).toEqual(['Class of 2030', 'Class of 2031', 'Class of 2040', 'Lower', 'School', 'Upper']);
    expect(names(await subtreeIds(campusDeps(w), KINDS.Group, id['Class of 2030']!))).toEqual(['Class of 2030']);
  });

  it('subtreesOf answers for many records from one read', async () => {
    const subtrees = await subtreesOf(campusDeps(w), KINDS.Group, [{ ID: id.Upper! }, { ID: id.Clubs! }]);
    expect(names(subtrees.get(id.Upper!)!)).toEqual(['Class of 2030', 'Class of 2031', 'Upper']);
    expect(names(subtrees.get(id.Clubs!)!)).toEqual(['Clubs']);
  });
});

describe('ancestorIds and relatedIds', () => {
  it('ancestors come nearest first', async () => {
    expect(await ancestorIds(campusDeps(w), KINDS.Term, tid['Fall Q1']!)).toEqual([tid['Fall Q1'], tid.Fall, tid.Year]);
  });

  it('a term’s related terms are itself, the terms inside it and those containing it, not its siblings (Slate’s getRelatedTermIDs)', async () => {
    expect(names(await relatedIds(campusDeps(w), KINDS.Term, tid.Fall!), tid)).toEqual(['Fall', 'Fall Q1', 'Year']);
    expect(names(await relatedIds(campusDeps(w), KINDS.Term, tid.Year!), tid)).toEqual(['Fall', 'Fall Q1', 'Spring', 'Year']);
  });

  it('stops at a cycle instead of looping', async () => {
    const deps = campusDeps(w);
    const a = await deps.db.term.create({ data: { Title: 'A', Handle: 'cycle-a', Class: KINDS.Term.className } });
    const b = await deps.db.term.create({ data: { Title: 'B', Handle: 'cycle-b', ParentID: a.ID, Class: KINDS.Term.className } });
    await deps.db.term.update({ where: { ID: a.ID }, data: { ParentID: b.ID } });
    expect(await ancestorIds(deps, KINDS.Term, a.ID)).toEqual([a.ID, b.ID]);
    expect((await subtreeIds(deps, KINDS.Term, a.ID)).sort()).toEqual([a.ID, b.ID].sort());
  });
});

describe('fullPaths', () => {
  it('joins the names from the root down with "/" (Slate’s Group FullPath)', async () => {
    const paths = await fullPaths(campusDeps(w), KINDS.Group, [{ ID: id['Class of 2040']! }, { ID: id.Clubs! }], 'Name');
    expect(paths.get(id['Class of 2040']!)).toBe('School/Lower/Class of 2040');
    expect(paths.get(id.Clubs!)).toBe('Clubs');
  });

  it('leaves out the ancestors the caller may not see, never the record itself', async () => {
    const deps = campusDeps(w);
    const inner = await record(w, staff, 'Group', { Name: 'Debate', ParentID: id['Class of 2031'] });
    const shownLive = (g: Record<string, unknown>) => g.Status === 'Live';
    expect((await fullPaths(deps, KINDS.Group, [inner], 'Name', shownLive)).get(inner.ID)).toBe('School/Upper/Debate');
    expect((await fullPaths(deps, KINDS.Group, [{ ID: id['Class of 2031']! }], 'Name', shownLive)).get(id['Class of 2031']!)).toBe('School/Upper/Class of 2031');
  });
});
