// Campus records a check is linked to (Check.records; stored as `campus:<kind>/<id>` tags): how
// each is named on screen, and how the link and unlink mutations name it.
import type { CampusKind, LinkedRecord } from './operations.ts';

/** The eight kinds, as CampusKind spells them, with the words a person reads. */
export const RECORD_KINDS: Array<{ kind: CampusKind; label: string; hint: string }> = [
  { kind: 'Section', label: 'Section', hint: 'code, e.g. MATH-001, or ID' },
  { kind: 'Course', label: 'Course', hint: 'code, e.g. MATH, or ID' },
  { kind: 'Person', label: 'Person', hint: 'username or ID' },
  { kind: 'Group', label: 'Group', hint: 'handle or ID' },
  { kind: 'Term', label: 'Term', hint: 'handle or ID' },
  { kind: 'Location', label: 'Location', hint: 'handle or ID' },
  { kind: 'Page', label: 'Page', hint: 'handle or ID' },
  { kind: 'BlogPost', label: 'Blog post', hint: 'handle or ID' },
];

const kindLabel = (kind: string) => RECORD_KINDS.find((k) => k.kind === kind)?.label ?? kind;

/** "Section: Algebra I": the kind and the best name the record has. */
export function recordLabel(record: LinkedRecord): string {
  const name = recordName(record);
  return name ? `${kindLabel(record.__typename)}: ${name}` : kindLabel(record.__typename);
}

function recordName(r: LinkedRecord): string {
  switch (r.__typename) {
    case 'Person':
      return [r.firstName, r.lastName].filter(Boolean).join(' ') || r.username || `#${r.databaseId}`;
    case 'Section':
      return r.sectionTitle || r.sectionCode || `#${r.databaseId}`;
    case 'Course':
      return r.title || r.code;
    case 'Group':
      return r.name;
    default:
      return r.title || r.handle || `#${r.databaseId}`;
  }
}

/** What unlinkCheckRecord takes: the kind and the record's ID (it removes every tag naming it). */
export const recordRef = (r: LinkedRecord) => ({ kind: r.__typename as CampusKind, handle: String(r.databaseId) });
