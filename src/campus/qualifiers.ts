// Search qualifiers per kind, as Slate's classes declare them ($searchConditions): `first:`,
// `last:`, `username:`, `group:` on people; `code:`, `title:`, `teacher:`, `course:`, `term:`,
// `location:`, `schedule:`, `department:` on sections; `title:`, `handle:` on terms and content; `id:` and `class:` on
// every kind. A bare term is `any`. Text terms are answered by the search index; a term
// qualified to one field is then checked against that field.
import { validationError } from '../shared/errors.ts';
import { ACCOUNT_LEVELS, KINDS, type KindName, type KindSpec } from './kinds.ts';
import { parseId, SEARCH_MAX_IDS } from './limits.ts';
import { findRecord, type CampusDeps } from './lookup.ts';
import { containsAny, hasSearchIndex, searchFields } from './search.ts';
import { parseSearch, type SearchTerm } from './search-string.ts';
import { relatedIds, subtreeIds } from './tree.ts';

type Where = Record<string, unknown>;
type Qualifier = { fields: string[] } | { lookup: (deps: CampusDeps, term: string) => Promise<Where> };

/** A condition no row meets (Slate's `FALSE` for a name that resolves to nothing). */
const NOTHING: Where = { ID: { in: [] } };

/** A record named by the term, or null; IDs, handles, codes and usernames all work. */
const named = (name: KindName, then: (id: number, deps: CampusDeps) => Promise<Where> | Where) => ({
  lookup: async (deps: CampusDeps, term: string) => {
    const record = await findRecord(deps, KINDS[name], term);
    return record ? then(record.ID, deps) : NOTHING;
  },
});

/** An enum field matched as a whole value, ignoring case (MySQL's collation does). */
const oneOf = (field: string, values: readonly string[]) => ({
  lookup: async (_deps: CampusDeps, term: string) => {
    const value = values.find((v) => v.toLowerCase() === term.toLowerCase());
    return value ? { [field]: value } : NOTHING;
  },
});

const PERSON: Record<string, Qualifier> = {
  name: { fields: ['FirstName', 'LastName'] },
  ...Object.fromEntries(['fname', 'firstname', 'first'].map((q) => [q, { fields: ['FirstName'] }])),
  ...Object.fromEntries(['lname', 'lastname', 'last'].map((q) => [q, { fields: ['LastName'] }])),
  ...Object.fromEntries(['username', 'uname', 'user'].map((q) => [q, { fields: ['Username'] }])),
  gender: oneOf('Gender', ['Male', 'Female']),
  sex: oneOf('Gender', ['Male', 'Female']),
  ...Object.fromEntries(['accountlevel', 'account', 'level'].map((q) => [q, oneOf('AccountLevel', ACCOUNT_LEVELS)])),
  // Members of the group or of any group inside it.
  group: named('Group', async (id, deps) => ({ memberships: { some: { GroupID: { in: await subtreeIds(deps, KINDS.Group, id) } } } })),
};

const SECTION: Record<string, Qualifier> = {
  teacher: named('Person', (id) => ({ participants: { some: { PersonID: id, Role: 'Teacher' } } })),
  course: named('Course', (id) => ({ CourseID: id })),
  // Sections of the term, of the terms inside it and of the terms containing it.
  term: named('Term', async (id, deps) => ({ TermID: { in: await relatedIds(deps, KINDS.Term, id) } })),
  location: named('Location', (id) => ({ LocationID: id })),
  schedule: named('Schedule', (id) => ({ ScheduleID: id })),
  // A section is in the department its course is in.
  department: named('Department', (id) => ({ course: { DepartmentID: id } })),
};

const EXTRA: Partial<Record<KindName, Record<string, Qualifier>>> = { Person: PERSON, Section: SECTION };

/** Every class a kind's rows can have (people with a username are Users). */
const classesOf = (kind: KindSpec) => (kind.name === 'Person' ? [kind.className, 'Emergence\\People\\User'] : [kind.className]);

function qualifiersOf(kind: KindSpec): Record<string, Qualifier> {
  const fields = searchFields(kind);
  return {
    any: { fields },
    // Each searched field by its own name (title:, handle:, code:, name:, firstname: ...).
    ...Object.fromEntries(fields.map((f) => [f.toLowerCase(), { fields: [f] }])),
    ...EXTRA[kind.name],
    id: { lookup: async (_deps, term) => ({ ID: { in: term.split(',').map((s) => parseId(s.trim())).filter((n): n is number => !!n) } }) },
    class: {
      lookup: async (_deps, term) => {
        const match = classesOf(kind).find((c) => c.toLowerCase().includes(term.toLowerCase()));
        return match ? { Class: match } : NOTHING;
      },
    },
  };
}

/**
 * `q` as a Prisma condition. Terms must all match unless the search says `mode:or`. An unknown
 * qualifier, or a search of no terms, is Slate's 200 `{"success":false,"message":...}`.
 */
export async function searchWhere(deps: CampusDeps, kind: KindSpec, q: string): Promise<Where> {
  const table = qualifiersOf(kind);
  const parts: Array<{ term: SearchTerm; qualifier: Qualifier }> = [];
  let mode: 'AND' | 'OR' = 'AND';
  for (const term of parseSearch(q)) {
    if (term.qualifier === 'mode' && term.term === 'or') {
      mode = 'OR';
      continue;
    }
    const name = term.qualifier ?? 'any';
    if (!Object.hasOwn(table, name)) throw validationError(`Unknown search qualifier: ${name}`);
    parts.push({ term, qualifier: table[name]! });
  }
  if (!parts.length) throw validationError('Query was empty');

  const index = deps.search;
  const all = searchFields(kind);
  /** The rows whose indexed text holds every word, or null when more match than a list is worth. */
  const indexed = async (words: string[]) => {
    // A kind without an index: null, so every text term scans (containsAny), as a broad search does.
    if (!hasSearchIndex(kind)) return null;
    const ids = await index.ids(kind, words, SEARCH_MAX_IDS);
    return ids.length <= SEARCH_MAX_IDS ? { ID: { in: ids } } : null;
  };
  const isAny = (fields: string[]) => fields.length === all.length;
  const text = parts.filter((p): p is { term: SearchTerm; qualifier: { fields: string[] } } => 'fields' in p.qualifier);

  if (mode === 'AND') {
    // One index lookup for all the text terms; a term qualified to a field is then checked there.
    const narrowed = text.length ? await indexed(text.map((p) => p.term.term)) : null;
    const conditions: Where[] = narrowed ? [narrowed] : [];
    for (const { term, qualifier } of parts) {
      if ('lookup' in qualifier) conditions.push(await qualifier.lookup(deps, term.term));
      else if (!narrowed || !isAny(qualifier.fields)) conditions.push(containsAny(index, qualifier.fields, term.term));
    }
    return { AND: conditions };
  }
  const alternatives: Where[] = [];
  for (const { term, qualifier } of parts) {
    if ('lookup' in qualifier) {
      alternatives.push(await qualifier.lookup(deps, term.term));
      continue;
    }
    const narrowed = await indexed([term.term]);
    if (narrowed && isAny(qualifier.fields)) alternatives.push(narrowed);
    else alternatives.push({ AND: [...(narrowed ? [narrowed] : []), containsAny(index, qualifier.fields, term.term)] });
  }
  return { OR: alternatives };
}
