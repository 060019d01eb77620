// Checks linked to campus records, both ways: Check.records, `checks` on each of the eight linkable
// campus types, the link and unlink mutations and recordChecksChanged. Each side keeps its own
// rule: a record's checks need an API key and show only that key's project's checks; a check's
// records show only what the campus token may read. Both directions load per request in
// batches (DataLoader), so a page of records with their checks costs a constant number of
// statements.
import DataLoader from 'dataloader';
import { accessToProjectArg, checkArgument } from '../monitoring/project-access.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { Check, CHECK_ID } from '../monitoring/check.ts';
import { CampusKind, CheckChangedRef } from '../subscriptions.ts';
import { campusRefs } from '../campus/records.ts';
import { readable } from '../campus/fields.ts';
import { KIND_LIST, KINDS, type KindName } from '../../../campus/kinds.ts';
import { getRecord } from '../../../campus/service.ts';
import { checksOfRecords, recordsOfChecks, type LinkedRecord } from '../../../links/store.ts';
import { linkCheckRecord, requireLinkable, unlinkCheckRecord } from '../../../links/service.ts';
import { linkedCheckChanges } from '../../../links/live.ts';
import { LINKABLE_KINDS } from '../../../links/tags.ts';
import type { Check as CheckRow } from '../../../generated/prisma/client.ts';

/**
 * One loader per request and key: DataLoader batches the loads of one tick into one call. It
 * caches nothing, because a subscription's context lives for many events and links change
 * between them (a cached list would show a check's records as they were at its first event).
 */
function perRequest<K, V>(store: WeakMap<GraphQLContext, Map<string, DataLoader<K, V>>>, ctx: GraphQLContext, key: string, batch: (keys: readonly K[]) => Promise<V[]>) {
  let loaders = store.get(ctx);
  if (!loaders) store.set(ctx, (loaders = new Map()));
  let loader = loaders.get(key);
  if (!loader) loaders.set(key, (loader = new DataLoader(batch, { cache: false })));
  return loader;
}

const recordLoaders = new WeakMap<GraphQLContext, Map<string, DataLoader<number, LinkedRecord[]>>>();
const recordsOf = (ctx: GraphQLContext) =>
  perRequest(recordLoaders, ctx, 'records', async (checkIds) => {
    const map = await recordsOfChecks(ctx.deps.db, checkIds);
    return checkIds.map((id) => map.get(id) ?? []);
  });

const checkLoaders = new WeakMap<GraphQLContext, Map<string, DataLoader<number, CheckRow[]>>>();
const checksOf = (ctx: GraphQLContext, projectId: string, kind: KindName) =>
  perRequest(checkLoaders, ctx, `${projectId}/${kind}`, async (recordIds) => {
    const map = await checksOfRecords(ctx.deps.db, projectId, kind, recordIds);
    return recordIds.map((id) => map.get(id) ?? []);
  });

// The kinds a check can be linked to (not departments or schedules: links/tags.ts LINKABLE_KINDS).
const LinkedCampusRecord = builder.unionType('LinkedCampusRecord', {
  description: 'A campus record of a kind a check can be linked to',
  types: KIND_LIST.filter((k) => LINKABLE_KINDS.has(k.name)).map((k) => campusRefs[k.name]) as never,
  resolveType: (record: { __kind?: KindName }) => record.__kind as never,
});

builder.objectField(Check, 'records', (t) =>
  t.field({
    type: [LinkedCampusRecord],
    description:
      'Campus records this check is linked to by its `campus:<kind>/<id>` tags, as far as the campus token (`Authorization: Token …`) may read them; anonymous callers see public records only',
    resolve: async (check, _a, ctx) => {
      const viewer = await ctx.viewer();
      const linked = await recordsOf(ctx).load(check.id);
      return linked.filter((l) => readable(KINDS[l.kind], viewer, l.record, ctx.now)).map((l) => ({ ...l.record, __kind: l.kind })) as never;
    },
  }),
);

// Only kinds with a link column get `checks` (departments and schedules have none: links/tags.ts).
for (const kind of KIND_LIST.filter((k) => LINKABLE_KINDS.has(k.name))) {
  builder.objectField(campusRefs[kind.name] as typeof Check, 'checks', (t) =>
    t.field({
      type: [Check],
      nullable: true,
      description:
        "Checks linked to this record, of the API key's project only (X-Api-Key, read-only keys too), or of the signed-in person's projects (or the one given), oldest first; null with an UNAUTHENTICATED error without either",
      args: { project: t.arg.id({ description: 'Only this project’s checks (signed-in people)' }) },
      resolve: async (record, args, ctx) => {
        const id = (record as unknown as { ID: number }).ID;
        const projectIds = args.project || !(await ctx.signedIn()) ? [(await accessToProjectArg(ctx, args.project)).projectId] : await ctx.readableProjects();
        return (await Promise.all(projectIds.map((projectId) => checksOf(ctx, projectId, kind.name).load(id)))).flat();
      },
    }),
  );
}

builder.mutationFields((t) => {
  const args = {
    check: t.arg.id({ required: true, description: CHECK_ID }),
    kind: t.arg({ type: CampusKind, required: true }),
    handle: t.arg.string({ required: true, description: 'The record as Slate looks it up: ID, handle, code (courses, sections) or username' }),
  };
  return {
    linkCheckRecord: t.field({
      type: Check,
      description:
        'Links the check to a campus record by adding the tag `campus:<kind>/<code, handle, username or ID>` (read-write key; the campus token must be able to read the record). Linked already: no change.',
      args,
      resolve: async (_r, a, ctx) => {
        const { access, code } = await checkArgument(ctx, a.check);
        return linkCheckRecord({ monitoring: ctx.deps, campus: ctx.campus }, access, await ctx.viewer(), code, a.kind, a.handle);
      },
    }),
    unlinkCheckRecord: t.field({
      type: Check,
      description: 'Removes every tag that links the check to the record. Not linked: no change.',
      args,
      resolve: async (_r, a, ctx) => {
        const { access, code } = await checkArgument(ctx, a.check);
        return unlinkCheckRecord({ monitoring: ctx.deps, campus: ctx.campus }, access, await ctx.viewer(), code, a.kind, a.handle);
      },
    }),
  };
});

builder.subscriptionField('recordChecksChanged', (t) =>
  t.field({
    type: CheckChangedRef,
    description:
      "Changes (pings, status changes, pauses, updates, deletes) of the API key's project's checks linked to one record, including the update that links or unlinks one; the campus token must be able to read the record",
    args: {
      kind: t.arg({ type: CampusKind, required: true }),
      handle: t.arg.string({ required: true, description: 'ID, handle, code or username' }),
      project: t.arg.id({ description: 'The project (signed-in people); a key\'s own when omitted' }),
    },
    subscribe: async (_r, args, ctx) => {
      requireLinkable(args.kind);
      const { projectId } = await accessToProjectArg(ctx, args.project);
      const record = await getRecord(ctx.campus, await ctx.viewer(), KINDS[args.kind], args.handle);
      return linkedCheckChanges(ctx.deps, projectId, args.kind, record.ID);
    },
    resolve: (e) => e,
  }),
);
