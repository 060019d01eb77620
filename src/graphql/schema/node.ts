// Global object identification (the GraphQL spec's Node, as Relay and Apollo clients use it):
// `node(id:)` and `nodes(ids:)` over every type with an identity. Each type loads its own way and
// applies its own root field's read rule (its prismaNode `findUnique`, or its node loader); here
// only the decoding, the bound, and one batch per type through the relay plugin.
import { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import { isObjectType, type GraphQLResolveInfo } from 'graphql';
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { validationError } from '../../shared/errors.ts';

/** Ids one `nodes` call may ask for: a page of a list, not a dump of the database. */
export const NODES_MAX = 100;

type ParseKey = (key: string, ctx: object) => unknown;

/**
 * A global ID as the loaders take it, or null when it names nothing that could exist: not
 * base64 of "<Type>:<key>", a type that is no Node, or a key of the wrong shape for the type.
 */
function parseGlobalId(raw: string, ctx: GraphQLContext, info: GraphQLResolveInfo): { typename: string; id: unknown } | null {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(raw);
  } catch {
    return null;
  }
  const type = info.schema.getType(decoded.typename);
  if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Node')) return null;
  const parse = type.extensions?.pothosParseGlobalID as ParseKey | undefined;
  const id = parse ? parse(decoded.id, ctx) : decoded.id;
  return id === null || id === undefined ? null : { typename: type.name, id };
}

/**
 * The nodes in the order asked; ids of one type load together (one statement per type). A type
 * whose rule refuses the caller (a read-only key asking for channels) fails its own entries
 * only: the plugin would fail the whole list with it.
 */
async function loadNodes(ctx: GraphQLContext, info: GraphQLResolveInfo, ids: readonly string[]): Promise<unknown[]> {
  const parsed = ids.map((raw) => parseGlobalId(raw, ctx, info));
  const byType = new Map<string, number[]>();
  parsed.forEach((id, i) => id && byType.set(id.typename, [...(byType.get(id.typename) ?? []), i]));
  const out: unknown[] = ids.map(() => null);
  await Promise.all(
    [...byType.values()].map(async (indexes) => {
      try {
        const loaded = await resolveNodes(builder, ctx, info, indexes.map((i) => parsed[i]));
        indexes.forEach((i, j) => (out[i] = loaded[j]));
      } catch (err) {
        // graphql-js reports an Error value as that entry's error, at its path.
        for (const i of indexes) out[i] = err;
      }
    }),
  );
  return out;
}

const Node = builder.nodeInterfaceRef();

builder.queryFields((t) => ({
  node: t.field({
    type: Node,
    nullable: true,
    description: 'The object with this global ID, when the caller may read it at its own root field (null when there is none, or it is another project’s)',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx, info) => (await loadNodes(ctx, info, [String(args.id)]))[0] as never,
  }),
  nodes: t.field({
    type: [Node],
    nullable: { list: false, items: true },
    description: `Objects by global ID, in the order asked (at most ${NODES_MAX}); each entry as \`node\` answers it`,
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx, info) => {
      if (args.ids.length > NODES_MAX) throw validationError(`ids: at most ${NODES_MAX} per call, got ${args.ids.length}`);
      return loadNodes(ctx, info, args.ids.map(String)) as never;
    },
  }),
}));
