// `node(id:)` for the campus rows that are not records: comments and the two join rows. None has
// a root field of its own; each is reached only through records, so `node` gives one exactly
// when the records it hangs on are readable: a comment with its record, a membership or a
// participation with both of its records. The refusal is the record's own (requireReadable's
// Login required / access denied), as a record's node gives it.
import { KIND_LIST, KINDS, type KindSpec } from '../../../campus/kinds.ts';
import { requireReadable } from '../../../campus/access.ts';
import { delegate, kindScope, type CampusRecord } from '../../../campus/lookup.ts';
import type { GraphQLContext } from '../context.ts';
import type { Comment } from '../../../generated/prisma/client.ts';
import { intKey } from '../node-keys.ts';

type Row = { ID: number };
type Outcome<T> = T | Error | null;

/** The refusal `record(id:)` would give for `record`, or null when the caller may read it. */
function refusal(kind: KindSpec, record: Record<string, unknown>, ctx: GraphQLContext, viewer: Awaited<ReturnType<GraphQLContext['viewer']>>): Error | null {
  try {
    requireReadable(kind, viewer, record, ctx.now);
    return null;
  } catch (err) {
    return err as Error;
  }
}

const idOptions = <T extends Row>() => ({ resolve: (row: T) => row.ID, parse: (key: string) => intKey(key) as number });

/** Comments by ID, in the order asked: one read of the comments, one per kind of record they are on. */
async function loadComments(ids: number[], ctx: GraphQLContext): Promise<Outcome<Comment>[]> {
  const rows = await ctx.deps.db.comment.findMany({ where: { ID: { in: ids } } });
  const records = new Map<string, CampusRecord>();
  for (const kind of KIND_LIST) {
    const on = rows.filter((r) => r.ContextClass === kind.className && r.ContextID !== null).map((r) => r.ContextID!);
    if (on.length === 0) continue;
    for (const record of await delegate(ctx.deps.db, kind).findMany({ where: { ID: { in: on }, ...kindScope(kind) } })) records.set(`${kind.className}:${record.ID}`, record);
  }
  const viewer = await ctx.viewer();
  const byId = new Map(rows.map((r) => [r.ID, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    const kind = KIND_LIST.find((k) => k.className === row?.ContextClass);
    const record = row && kind ? records.get(`${kind.className}:${row.ContextID}`) : undefined;
    // A comment whose record is gone is reachable from nowhere: as missing.
    if (!row || !kind || !record) return null;
    return refusal(kind, record, ctx, viewer) ?? row;
  });
}

/** Join rows by ID with both of their records, in the order asked; refused unless both are readable. */
function joinLoader<T extends Row>(read: (ids: number[], ctx: GraphQLContext) => Promise<T[]>, sides: ReadonlyArray<[string, KindSpec]>) {
  return async (ids: number[], ctx: GraphQLContext): Promise<Outcome<T>[]> => {
    const rows = await read(ids, ctx);
    const viewer = await ctx.viewer();
    const byId = new Map(rows.map((r) => [r.ID, r]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) return null;
      for (const [relation, kind] of sides) {
        const refused = refusal(kind, (row as unknown as Record<string, Record<string, unknown>>)[relation]!, ctx, viewer);
        if (refused) return refused;
      }
      return row;
    });
  };
}

export const commentNode = { id: idOptions(), loadMany: loadComments };

export const groupMemberNode = {
  id: idOptions(),
  loadMany: joinLoader(
    (ids, ctx) => ctx.deps.db.groupMember.findMany({ where: { ID: { in: ids } }, include: { group: true, person: true } }),
    [['group', KINDS.Group], ['person', KINDS.Person]],
  ),
};

export const sectionParticipantNode = {
  id: idOptions(),
  loadMany: joinLoader(
    (ids, ctx) => ctx.deps.db.sectionParticipant.findMany({ where: { ID: { in: ids } }, include: { section: true, person: true } }),
    [['section', KINDS.Section], ['person', KINDS.Person]],
  ),
};
