// Trees of terms, locations and groups through ParentID. Slate keeps them as nested sets
// (Left/Right, NestingBehavior); we keep only ParentID and compute what Slate reads from the
// set: pre-order (its `Left` order), subtrees, ancestors and full paths. A tree kind holds a
// school's terms, rooms or groups (hundreds of rows), so reading (ID, ParentID) of the whole
// table for an ordering is cheap and keeps writes free of renumbering.
import type { KindSpec } from './kinds.ts';
import { delegate, type CampusDeps, type CampusRecord } from './lookup.ts';

interface Node {
  ID: number;
  ParentID: number | null;
}

async function nodes(deps: CampusDeps, kind: KindSpec, extra: Record<string, true> = {}): Promise<Array<Node & Record<string, unknown>>> {
  return (await delegate(deps.db, kind).findMany({ select: { ID: true, ParentID: true, ...extra }, orderBy: { ID: 'asc' } })) as never;
}

function childrenOf(all: Node[]): Map<number | null, number[]> {
  const ids = new Set(all.map((n) => n.ID));
  const children = new Map<number | null, number[]>();
  // A parent that is gone (or never was) makes its children roots, as a broken nested set would.
  for (const n of all) {
    const parent = n.ParentID !== null && ids.has(n.ParentID) ? n.ParentID : null;
    children.set(parent, [...(children.get(parent) ?? []), n.ID]);
  }
  return children;
}

/** Each record's place in a pre-order walk, siblings oldest first (Slate's Left order). */
export async function preorderRank(deps: CampusDeps, kind: KindSpec): Promise<Map<number, number>> {
  const children = childrenOf(await nodes(deps, kind));
  const rank = new Map<number, number>();
  // Iterative: a deep tree cannot overflow the stack.
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length) {
    const id = stack.pop()!;
    if (rank.has(id)) continue;
    rank.set(id, rank.size);
    stack.push(...[...(children.get(id) ?? [])].reverse());
  }
  return rank;
}

/** The record and all its descendants, one query per level. */
export async function subtreeIds(deps: CampusDeps, kind: KindSpec, rootId: number): Promise<number[]> {
  const ids = [rootId];
  const seen = new Set(ids);
  for (let frontier = [rootId]; frontier.length; ) {
    const children = await delegate(deps.db, kind).findMany({ where: { ParentID: { in: frontier } }, select: { ID: true } });
    frontier = children.map((c) => c.ID).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
    ids.push(...frontier);
  }
  return ids;
}

/** The record and its ancestors, nearest first. */
export async function ancestorIds(deps: CampusDeps, kind: KindSpec, id: number): Promise<number[]> {
  const ids = [id];
  for (let cursor: CampusRecord | null = await delegate(deps.db, kind).findFirst({ where: { ID: id }, select: { ID: true, ParentID: true } }); cursor?.ParentID; ) {
    const parentId = cursor.ParentID as number;
    if (ids.includes(parentId)) break;
    ids.push(parentId);
    cursor = await delegate(deps.db, kind).findFirst({ where: { ID: parentId }, select: { ID: true, ParentID: true } });
  }
  return ids;
}

/** Slate's Term::getRelatedTermIDs: the term, the terms it contains and the terms containing it. */
export async function relatedIds(deps: CampusDeps, kind: KindSpec, id: number): Promise<number[]> {
  return [...new Set([...(await ancestorIds(deps, kind, id)), ...(await subtreeIds(deps, kind, id))])];
}

/** For each record, the IDs of its subtree (itself included), from one read of the table. */
export async function subtreesOf(deps: CampusDeps, kind: KindSpec, records: CampusRecord[]): Promise<Map<number, number[]>> {
  const children = childrenOf(await nodes(deps, kind));
  const out = new Map<number, number[]>();
  for (const r of records) {
    const ids = new Set<number>();
    for (const stack = [r.ID]; stack.length; ) {
      const id = stack.pop()!;
      if (ids.has(id)) continue;
      ids.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    out.set(r.ID, [...ids]);
  }
  return out;
}

/**
 * Slate's Group FullPath: the names from the root down to the record, joined with "/".
 * Ancestors `shown` refuses (ones the caller may not read) are left out of the path.
 */
export async function fullPaths(
  deps: CampusDeps,
  kind: KindSpec,
  records: CampusRecord[],
  nameField: string,
  shown: (ancestor: Record<string, unknown>) => boolean = () => true,
): Promise<Map<number, string>> {
  const all = await nodes(deps, kind, { [nameField]: true, ...(kind.fields.some((f) => f.name === 'Status') ? { Status: true } : {}) });
  const byId = new Map(all.map((n) => [n.ID, n]));
  const out = new Map<number, string>();
  for (const r of records) {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let n = byId.get(r.ID); n && !seen.has(n.ID); n = n.ParentID === null ? undefined : byId.get(n.ParentID)) {
      seen.add(n.ID);
      if (n.ID === r.ID || shown(n)) names.unshift(String(n[nameField]));
    }
    out.set(r.ID, names.join('/'));
  }
  return out;
}
