// Slate's `?include=`: comma-separated dynamic fields, dot paths that nest (`Location.Parent`,
// `Course.Sections`), `*` for every field at a level. Each name at each level is loaded for
// the whole list at once (one query per name and level, never per record).
import type { Viewer } from '../../src/campus/auth.ts';
import { COMPUTED } from '../../src/campus/computed.ts';
import { hasLevel, KINDS, type KindName, type KindSpec } from '../../src/campus/kinds.ts';
import { RELATIONS } from '../../src/campus/relationships.ts';
import type { CampusDeps, CampusRecord } from '../../src/campus/service.ts';
import { linkJson, recordJson } from './serialize.ts';

/** Names to include at each level; a dot path nests. */
export type IncludeTree = Map<string, IncludeTree>;

/** Dot paths deeper than this are cut (Slate has no limit; five levels reach any real record). */
const MAX_INCLUDE_DEPTH = 5;

export function parseInclude(include: string | null): IncludeTree {
  const tree: IncludeTree = new Map();
  for (const path of (include ?? '').split(',')) {
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
 */
export async function addIncludes(deps: CampusDeps, viewer: Viewer, kind: KindSpec, list: CampusRecord[], out: Array<Record<string, unknown>>, tree: IncludeTree): Promise<void> {
  if (!list.length) return;
  for (const [name, sub] of expand(kind.name, tree)) {
    const computed = own(COMPUTED[kind.name], name);
    if (computed) {
      const values = await computed(deps, viewer, list);
      list.forEach((r, i) => (out[i]![name] = values.get(r.ID) ?? null));
      continue;
    }
    const relation = own(RELATIONS[kind.name], name);
    if (!relation) continue;
    if (relation.readLevel && !hasLevel(viewer.level, relation.readLevel) && !(kind.name === 'Person' && list.every((r) => r.ID === viewer.personId))) continue;
    const loaded = await relation.load(deps, list);
    const target = relation.kind in KINDS ? KINDS[relation.kind as KindName] : null;
    // Each related record is shaped once, however many records share it, then nested into.
    const shaped = new Map<unknown, { record: CampusRecord; json: Record<string, unknown> }>();
    const shape = (v: unknown) => {
      const record = v as CampusRecord;
      const key = target ? record.ID : v;
      if (!shaped.has(key)) shaped.set(key, { record, json: target ? recordJson(target, record, viewer) : linkJson(record) });
      return shaped.get(key)!.json;
    };
    list.forEach((r, i) => {
      const value = loaded.get(r.ID);
      out[i]![name] = Array.isArray(value) ? value.map(shape) : value ? shape(value) : null;
    });
    const nested = [...shaped.values()];
    if (target && sub.size && nested.length) await addIncludes(deps, viewer, target, nested.map((n) => n.record), nested.map((n) => n.json), sub);
  }
}

/** The JSON of `list` with `?include=` applied. */
export async function withIncludes(deps: CampusDeps, viewer: Viewer, kind: KindSpec, list: CampusRecord[], include: string | null) {
  const out = list.map((r) => recordJson(kind, r, viewer));
  await addIncludes(deps, viewer, kind, list, out, parseInclude(include));
  return out;
}
