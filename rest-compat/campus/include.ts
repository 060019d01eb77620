// Slate's `?include=`: comma-separated dynamic fields (or `include[]=`, one per item), dot paths that nest (`Location.Parent`,
// `Course.Sections`), `*` for every field at a level. Each name at each level is loaded for
// the whole list at once (one query per name and level, never per record).
import type { Viewer } from '../../src/campus/auth.ts';
import { canRead } from '../../src/campus/access.ts';
import { COMPUTED } from '../../src/campus/computed.ts';
import { hasLevel, KINDS, type KindName, type KindSpec } from '../../src/campus/kinds.ts';
import { RELATIONS } from '../../src/campus/relationships.ts';
import type { CampusDeps, CampusRecord } from '../../src/campus/service.ts';
import { linkJson, recordJson } from './serialize.ts';

/** Names to include at each level; a dot path nests. */
export type IncludeTree = Map<string, IncludeTree>;

/** Dot paths deeper than this are cut (Slate has no limit; five levels reach any real record). */
const MAX_INCLUDE_DEPTH = 5;

/**
 * `include` as PHP hands Slate `$_GET['include']`: `include=A,B` is one string, split on commas;
 * `include[]=A&include[]=B` (or `include[0]=A`) is a list whose items are names as they are
 * (JSON::translateObjects explodes only a string). As PHP's parse_str, the last of repeated
 * keys wins, and a list key replaces a string before it (and the other way round).
 */
export function includeParam(query: URLSearchParams): string | string[] | null {
  let value: string | Map<string, string> | null = null;
  let next = 0;
  for (const [key, item] of query) {
    if (key === 'include') {
      value = item;
      continue;
    }
    const m = /^include\[([^[\]]*)\]$/.exec(key);
    if (!m) continue;
    if (!(value instanceof Map)) [value, next] = [new Map(), 0];
    // `[]` takes one past the largest integer key so far; an explicit key overwrites in place.
    const index = m[1] === '' ? String(next) : m[1]!;
    if (/^(0|[1-9]\d{0,8})$/.test(index)) next = Math.max(next, Number(index) + 1);
    value.set(index, item);
  }
  return value instanceof Map ? [...value.values()] : value;
}

export function parseInclude(include: string | readonly string[] | null): IncludeTree {
  const tree: IncludeTree = new Map();
  for (const path of typeof include === 'string' ? include.split(',') : (include ?? [])) {
    let node = tree;
    // A leading `~` (Slate: apply at every level) is read as the plain name.
    for (const name of path.trim().replace(/^~/, '').split('.').slice(0, MAX_INCLUDE_DEPTH)) {
      if (!name) break;
      if (!node.has(name)) node.set(name, new Map());
      node = node.get(name)!;
    }
  }
  return tree;
}

const own = <T>(table: Record<string, T>, name: string) => (Object.hasOwn(table, name) ? table[name] : undefined);

/** `*`: every relationship and computed field of the kind, nothing nested. */
function expand(kind: KindName, tree: IncludeTree): IncludeTree {
  if (!tree.has('*')) return tree;
  const all: IncludeTree = new Map([...Object.keys(RELATIONS[kind]), ...Object.keys(COMPUTED[kind])].map((n) => [n, new Map()]));
  for (const [name, sub] of tree) if (name !== '*') all.set(name, sub);
  return all;
}

/**
 * Adds the included fields to `out` (the JSON of `list`, same order). Names a kind does not
 * declare are ignored, as Slate ignores them; Staff-only relations stay hidden from others.
 * A related record the caller may not read at its own route (a hidden course, a draft post)
 * is left out: null in place of one record, missing from a list (GraphQL does the same).
 */
export async function addIncludes(deps: CampusDeps, viewer: Viewer, kind: KindSpec, list: CampusRecord[], out: Array<Record<string, unknown>>, tree: IncludeTree): Promise<void> {
  if (!list.length) return;
  const now = deps.clock.now();
  for (const [name, sub] of expand(kind.name, tree)) {
    const computed = own(COMPUTED[kind.name], name);
    if (computed) {
      const values = await computed(deps, viewer, list);
      list.forEach((r, i) => (out[i]![name] = values.get(r.ID) ?? null));
      continue;
    }
    const relation = own(RELATIONS[kind.name], name);
    if (!relation) continue;
    if (relation.readLevel && !hasLevel(viewer.level, relation.readLevel) && (relation.notSelf || !(kind.name === 'Person' && list.every((r) => r.ID === viewer.personId)))) continue;
    // Records whose related rows the caller may not see get no key at all, as a hidden field.
    const allowed = relation.readable ? await relation.readable(deps, viewer, list) : null;
    if (allowed && !allowed.size) continue;
    const loaded = await relation.load(deps, allowed ? list.filter((r) => allowed.has(r.ID)) : list);
    const target = relation.kind in KINDS ? KINDS[relation.kind as KindName] : null;
    const visible = (v: unknown) => !!v && (!target || canRead(target, viewer, v as CampusRecord, now)) && (!relation.visibleTo || relation.visibleTo(viewer, v));
    // Each related record is shaped once, however many records share it, then nested into.
    const shaped = new Map<unknown, { record: CampusRecord; json: Record<string, unknown> }>();
    const shape = (v: unknown) => {
      const record = v as CampusRecord;
      const key = target ? record.ID : v;
      if (!shaped.has(key)) shaped.set(key, { record, json: target ? recordJson(target, record, viewer) : linkJson(record) });
      return shaped.get(key)!.json;
    };
    list.forEach((r, i) => {
      if (allowed && !allowed.has(r.ID)) return;
      const value = loaded.get(r.ID);
      out[i]![name] = Array.isArray(value) ? value.filter(visible).map(shape) : visible(value) ? shape(value) : null;
    });
    const nested = [...shaped.values()];
    if (target && sub.size && nested.length) await addIncludes(deps, viewer, target, nested.map((n) => n.record), nested.map((n) => n.json), sub);
  }
}

/** The JSON of `list` with `?include=` (a string or, from `include[]=`, a list; see includeParam) applied. */
export async function withIncludes(deps: CampusDeps, viewer: Viewer, kind: KindSpec, list: CampusRecord[], include: string | readonly string[] | null) {
  const out = list.map((r) => recordJson(kind, r, viewer));
  await addIncludes(deps, viewer, kind, list, out, parseInclude(include));
  return out;
}
