// Slate's computed fields over GraphQL: a group's fullPath and population, a section's
// studentsCount. They are the functions REST's `?include=FullPath,Population,StudentsCount`
// calls (src/campus/computed.ts), loaded through one DataLoader per request and field, so a
// list of records costs the same statements as one record. Who may see them is the rule of the
// type they sit on: whoever may read the group or section (the type's read rule), as in REST.
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { executionScope } from '../execution-scope.ts';
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { COMPUTED } from '../../../campus/computed.ts';
import type { KindName } from '../../../campus/kinds.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { campusRefs } from './records.ts';

const loaders = new WeakMap<object, Map<string, DataLoader<CampusRecord, unknown>>>();

/** The request's loader for `kind`'s computed field `name` (Slate's spelling). */
function computedLoader(ctx: GraphQLContext, info: GraphQLResolveInfo, kind: KindName, name: string) {
  const scope = executionScope(ctx, info);
  let byName = loaders.get(scope);
  if (!byName) loaders.set(scope, (byName = new Map()));
  const key = `${kind}.${name}`;
  let loader = byName.get(key);
  if (!loader) {
    const compute = COMPUTED[kind][name]!;
    loader = new DataLoader(
      async (list: readonly CampusRecord[]) => {
        const values = await compute(ctx.campus, await ctx.viewer(), [...list]);
        return list.map((r) => values.get(r.ID) ?? null);
      },
      { cacheKeyFn: (r) => r.ID },
    );
    byName.set(key, loader);
  }
  return loader;
}

// The records come from the records service or from Prisma relations with every scalar loaded,
// so the ID these functions need is always there.
type Types = typeof builder.$inferSchemaTypes;
const refOf = (kind: KindName) => campusRefs[kind] as ObjectRef<Types, CampusRecord>;

builder.objectFields(refOf('Group'), (t) => ({
  fullPath: t.string({
    description: "The names from the top group down to this one, joined with \"/\" (Slate's FullPath: School/Clubs/Chess)",
    resolve: async (g, _a, ctx, info) => (await computedLoader(ctx, info, 'Group', 'FullPath').load(g)) as string,
  }),
  population: t.int({
    description: "Membership rows of this group and of every group inside it; a person in two counts twice (Slate's Population)",
    resolve: async (g, _a, ctx, info) => (await computedLoader(ctx, info, 'Group', 'Population').load(g)) as number,
  }),
}));

builder.objectFields(refOf('Section'), (t) => ({
  studentsCount: t.int({
    description: "Participants with the Student role (Slate's StudentsCount)",
    resolve: async (s, _a, ctx, info) => (await computedLoader(ctx, info, 'Section', 'StudentsCount').load(s)) as number,
  }),
}));
