// The link table (CheckRecordLink) kept in step with checks' tags, and read in batches. Each
// row is one `campus:<kind>/<id>` tag resolved when it was written; one record column is set,
// the one of the record's model, so deleting the record deletes the row.
import type { Check, Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { KINDS, type KindName, type KindSpec } from '../campus/kinds.ts';
import { delegate, findRecord, type CampusDeps, type CampusRecord } from '../campus/lookup.ts';
import { LINKABLE_KINDS, recordTagsOf } from './tags.ts';

type Tx = Prisma.TransactionClient;
type Model = KindSpec['model'];
type Column = 'personId' | 'sectionId' | 'courseId' | 'contentId' | 'groupId' | 'locationId' | 'termId';

/** The link column of each record model (blog posts and pages share `contentId`; `kind` tells them apart). */
export const COLUMN: Partial<Record<Model, Column>> = {
  person: 'personId',
  section: 'sectionId',
  course: 'courseId',
  content: 'contentId',
  group: 'groupId',
  location: 'locationId',
  term: 'termId',
};

/** The link column of a linkable kind (tags.ts LINKABLE_KINDS); callers check linkability first. */
const columnOf = (kind: KindName): Column => {
  const column = COLUMN[KINDS[kind].model];
  if (!column) throw new Error(`${kind} records cannot be linked to checks`);
  return column;
};

/** findRecord reads only `db`; inside a write it must read through the transaction. */
const lookupIn = (db: Db | Tx) => ({ db }) as unknown as CampusDeps;

export const resolveTag = (db: Db | Tx, kind: KindName, ident: string) => findRecord(lookupIn(db), KINDS[kind], ident);

/**
 * Brings the check's links in step with its tags, inside the transaction that writes them. A
 * tag kept from before keeps its link (renaming the record does not break it); a new tag is
 * resolved now, and names nothing when no record answers to it (it stays an ordinary tag); a
 * tag removed takes its link away.
 */
export async function syncRecordLinks(tx: Tx, checkId: number, tags: string): Promise<void> {
  const wanted = recordTagsOf(tags);
  const rows = await tx.checkRecordLink.findMany({ where: { checkId }, select: { id: true, tag: true } });
  const keep = new Set(wanted.map((t) => t.tag));
  const stale = rows.filter((r) => !keep.has(r.tag)).map((r) => r.id);
  if (stale.length) await tx.checkRecordLink.deleteMany({ where: { id: { in: stale } } });
  const linked = new Set(rows.map((r) => r.tag));
  for (const t of wanted) {
    if (linked.has(t.tag)) continue;
    const record = await resolveTag(tx, t.kind, t.ident);
    if (record) await tx.checkRecordLink.create({ data: { checkId, tag: t.tag, kind: t.kind, [columnOf(t.kind)]: record.ID } });
  }
}

export interface LinkRow {
  checkId: number;
  tag: string;
  kind: KindName;
  recordId: number;
}

const LINK_SELECT = { checkId: true, tag: true, kind: true, personId: true, sectionId: true, courseId: true, contentId: true, groupId: true, locationId: true, termId: true } as const;

function toLinkRow(row: Prisma.CheckRecordLinkGetPayload<{ select: typeof LINK_SELECT }>): LinkRow {
  const kind = row.kind as KindName;
  return { checkId: row.checkId, tag: row.tag, kind, recordId: row[columnOf(kind)]! };
}

/** The links of these checks, oldest first. */
export async function linksOfChecks(db: Db, checkIds: readonly number[]): Promise<LinkRow[]> {
  if (!checkIds.length) return [];
  const rows = await db.checkRecordLink.findMany({ where: { checkId: { in: [...checkIds] } }, select: LINK_SELECT, orderBy: { id: 'asc' } });
  return rows.map(toLinkRow);
}

export interface LinkedRecord {
  kind: KindName;
  record: CampusRecord;
}

/**
 * The records linked to each check, in link order, each once: one statement for the links and
 * one per record model among them (at most seven), however many checks.
 */
export async function recordsOfChecks(db: Db, checkIds: readonly number[]): Promise<Map<number, LinkedRecord[]>> {
  const links = await linksOfChecks(db, checkIds);
  const idsByModel = new Map<Model, Set<number>>();
  for (const l of links) {
    const model = KINDS[l.kind].model;
    if (!idsByModel.has(model)) idsByModel.set(model, new Set());
    idsByModel.get(model)!.add(l.recordId);
  }
  const loaded = new Map<string, CampusRecord>();
  await Promise.all(
    [...idsByModel].map(async ([model, ids]) => {
      const kind = Object.values(KINDS).find((k) => k.model === model)!;
      for (const r of await delegate(db, kind).findMany({ where: { ID: { in: [...ids] } } })) loaded.set(`${model}:${r.ID}`, r);
    }),
  );
  const out = new Map<number, LinkedRecord[]>(checkIds.map((id) => [id, []]));
  for (const l of links) {
    const spec = KINDS[l.kind];
    const record = loaded.get(`${spec.model}:${l.recordId}`);
    // A blog post row linked as a page (or the other way) is not that kind.
    if (!record || (spec.model === 'content' && record.Class !== spec.className)) continue;
    const list = out.get(l.checkId)!;
    if (!list.some((x) => x.kind === l.kind && x.record.ID === record.ID)) list.push({ kind: l.kind, record });
  }
  return out;
}

/**
 * The checks of one project linked to each of these records of one kind, oldest first: two
 * statements however many records (the checks, then which record each link names).
 */
export async function checksOfRecords(db: Db, projectId: string, kind: KindName, recordIds: readonly number[]): Promise<Map<number, Check[]>> {
  // A kind without a link column has no linked checks.
  if (!LINKABLE_KINDS.has(kind)) return new Map(recordIds.map((id) => [id, []]));
  const column = columnOf(kind);
  const linkWhere = { kind, [column]: { in: [...recordIds] } };
  const checks = await db.check.findMany({
    where: { projectId, recordLinks: { some: linkWhere } },
    include: { recordLinks: { where: linkWhere, select: { [column]: true } } },
    orderBy: { id: 'asc' },
  });
  const out = new Map<number, Check[]>(recordIds.map((id) => [id, []]));
  for (const { recordLinks, ...check } of checks) {
    const ids = new Set((recordLinks as Array<Record<string, number>>).map((l) => l[column]!));
    for (const id of ids) out.get(id)?.push(check);
  }
  return out;
}

/** Whether the check is linked to the record now. */
export async function isLinked(db: Db, checkId: number, kind: KindName, recordId: number): Promise<boolean> {
  if (!LINKABLE_KINDS.has(kind)) return false;
  return (await db.checkRecordLink.count({ where: { checkId, kind, [columnOf(kind)]: recordId } })) > 0;
}

/** The ids of the project's checks linked to the record now. */
export async function linkedCheckIds(db: Db, projectId: string, kind: KindName, recordId: number): Promise<number[]> {
  if (!LINKABLE_KINDS.has(kind)) return [];
  const rows = await db.checkRecordLink.findMany({
    where: { kind, [columnOf(kind)]: recordId, check: { projectId } },
    select: { checkId: true },
  });
  return [...new Set(rows.map((r) => r.checkId))];
}
