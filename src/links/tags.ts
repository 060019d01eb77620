// The tag convention that links a check to a campus record: `campus:<kind>/<identifier>`, e.g.
// `campus:section/MATH-001`. Healthchecks' scripts set tags already, so links need no new REST
// field. Pure: strings in, values out.
import { KIND_LIST, type KindName, type KindSpec } from '../campus/kinds.ts';

export const TAG_PREFIX = 'campus:';

/** The kind as a tag spells it: the kind's name in lower case (person, section, blogpost …). */
export const tagKindOf = (kind: KindName) => kind.toLowerCase();

/**
 * The kinds a check can be linked to: those with a column in the link table (CheckRecordLink).
 * Departments and schedules have none; a `campus:department/...` tag stays an ordinary tag.
 */
export const LINKABLE_KINDS: ReadonlySet<KindName> = new Set(['Person', 'Section', 'Course', 'BlogPost', 'Page', 'Group', 'Location', 'Term']);

const KIND_BY_TAG = new Map<string, KindName>(KIND_LIST.filter((k) => LINKABLE_KINDS.has(k.name)).map((k) => [tagKindOf(k.name), k.name]));

export interface RecordTag {
  /** The tag exactly as written. */
  tag: string;
  kind: KindName;
  /** As Slate looks records up: an ID (all digits), a Handle, a Code or a Username. */
  ident: string;
}

/** A tag of the convention, or null for any other tag (which stays an ordinary tag). */
export function parseRecordTag(tag: string): RecordTag | null {
  if (!tag.startsWith(TAG_PREFIX)) return null;
  const rest = tag.slice(TAG_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  const kind = KIND_BY_TAG.get(rest.slice(0, slash));
  return kind ? { tag, kind, ident: rest.slice(slash + 1) } : null;
}

/** The record tags among a check's space-separated tags, each once, in order. */
export function recordTagsOf(tags: string): RecordTag[] {
  const seen = new Set<string>();
  const out: RecordTag[] = [];
  for (const tag of tags.split(' ')) {
    const parsed = tag ? parseRecordTag(tag) : null;
    if (parsed && !seen.has(parsed.tag)) {
      seen.add(parsed.tag);
      out.push(parsed);
    }
  }
  return out;
}

export const recordTag = (kind: KindName, ident: string | number) => `${TAG_PREFIX}${tagKindOf(kind)}/${ident}`;

/**
 * Identifiers a tag could name `record` by, most readable first: a course's or section's Code
 * (MATH-001), the Handle, a person's Username, and the ID, which always works. Values with
 * white space cannot be in a tag.
 */
export function identCandidates(kind: KindSpec, record: Record<string, unknown>): string[] {
  const values = [record.Code, record.Handle, kind.name === 'Person' ? record.Username : undefined];
  const named = values.filter((v): v is string => typeof v === 'string' && v !== '' && !/\s/.test(v));
  return [...named, String(record.ID)];
}

/** Tags with the ones in `remove` taken out, spacing normalised as Healthchecks stores it. */
export function withoutTags(tags: string, remove: ReadonlySet<string>): string {
  return tags.split(' ').filter((t) => t && !remove.has(t)).join(' ');
}

export function withTag(tags: string, tag: string): string {
  const list = tags.split(' ').filter(Boolean);
  return list.includes(tag) ? list.join(' ') : [...list, tag].join(' ');
}
