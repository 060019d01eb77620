// Connector mappings over GraphQL: `mappings` on every campus kind (Slate's Section `Mappings`,
// Person `Mapping`), createMapping and deleteMapping; the domain functions REST's
// /<prefix>/<h>/mappings calls. Staff read them (null for others), Administrators write them.
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { hasLevel, KIND_LIST, KINDS, type KindName } from '../../../campus/kinds.ts';
import { createMapping, deleteMapping, MAPPING_READ_LEVEL, MAPPING_SOURCES, mappingsOf, type ConnectorMapping } from '../../../campus/mappings.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { campusRefs } from './records.ts';
import { recordIdent } from './arguments.ts';
import { CampusKind } from '../subscriptions.ts';
import { scopedLoader } from './notes.ts';

export const MappingRef = builder.objectRef<ConnectorMapping>('ConnectorMapping').implement({
  description: "A record's key in an external system (Slate's Emergence\\Connectors\\Mapping)",
  fields: (t) => ({
    databaseId: t.exposeInt('ID'),
    created: t.field({ type: 'DateTime', resolve: (m) => m.Created }),
    creatorId: t.exposeInt('CreatorID', { nullable: true }),
    contextClass: t.exposeString('ContextClass'),
    contextId: t.exposeInt('ContextID'),
    source: t.exposeString('Source', { description: `One of: ${MAPPING_SOURCES.join(', ')}` }),
    connector: t.exposeString('Connector'),
    externalKey: t.exposeString('ExternalKey'),
    externalIdentifier: t.exposeString('ExternalIdentifier'),
  }),
});

for (const kind of KIND_LIST) {
  builder.objectField(campusRefs[kind.name] as never, 'mappings', (t) =>
    (t as unknown as { field: (o: object) => unknown }).field({
      type: [MappingRef],
      nullable: true,
      description: 'Connector mappings of this record, oldest first; Staff only (null for everyone else)',
      resolve: async (r: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
        if (!hasLevel((await ctx.viewer()).level, MAPPING_READ_LEVEL)) return null;
        const rows = await scopedLoader(ctx, info, `mappings-${kind.name}`, (ids) => mappingsOf(ctx.campus, kind, ids.map((ID) => ({ ID }) as CampusRecord))).load(r.ID);
        return (rows as ConnectorMapping[] | null) ?? [];
      },
    }) as never,
  );
}

const MappingInput = builder.inputType('ConnectorMappingInput', {
  fields: (t) => ({
    connector: t.string({ required: true, description: 'At most 25 characters' }),
    externalKey: t.string({ required: true, description: 'At most 25 characters' }),
    externalIdentifier: t.string({ required: true }),
    source: t.string({ description: `One of: ${MAPPING_SOURCES.join(', ')} (default manual)` }),
  }),
});

builder.mutationFields((t) => ({
  createMapping: t.field({
    type: MappingRef,
    description: 'Maps a record to an external identifier (Administrator); an identifier already mapped is re-pointed to this record, as in Slate',
    args: {
      kind: t.arg({ type: CampusKind, required: true }),
      record: t.arg.id({ required: true, description: "The record: Slate's ID or handle, or its global `id`" }),
      input: t.arg({ type: MappingInput, required: true }),
    },
    resolve: async (_r, args, ctx) => {
      const kind = KINDS[args.kind as KindName];
      const { input } = args;
      const fields = { Connector: input.connector, ExternalKey: input.externalKey, ExternalIdentifier: input.externalIdentifier, ...(input.source != null ? { Source: input.source } : {}) };
      return (await createMapping(ctx.campus, await ctx.viewer(), kind, recordIdent(args.record, kind), fields)).mapping;
    },
  }),
  deleteMapping: t.field({
    type: MappingRef,
    description: 'Deletes a connector mapping (Administrator) and returns it as it was',
    args: { id: t.arg.id({ required: true, description: "The mapping's databaseId" }) },
    resolve: async (_r, args, ctx) => deleteMapping(ctx.campus, await ctx.viewer(), String(args.id)),
  }),
}));
