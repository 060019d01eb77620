// The Pothos builder: plugins and scalars only; types live in their domain modules.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../../generated/pothos-types.ts';
import { getDatamodel } from '../../generated/pothos-types.ts';
import type { GraphQLContext } from './context.ts';
import { isoString } from '../../shared/iso-date.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: { DateTime: { Input: Date; Output: Date } };
  DefaultFieldNullability: false;
  // Campus types carry their read rule as a type-level function (records.ts); no named scopes.
  AuthScopes: {};
}>({
  // Scope auth first, so its checks wrap the resolvers plugin-prisma adds (the plugin's advice);
  // relay before prisma, which builds prismaNode on it.
  plugins: [ScopeAuthPlugin, RelayPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  relay: {
    // `node` and `nodes` are ours (node.ts): a malformed or unknown id is null there, where the
    // plugin's own fields would fail the whole field while parsing it.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: { description: 'An object with a global ID: refetch it with `node(id:)` or `nodes(ids:)`' },
    idFieldOptions: { description: 'Global ID: opaque, the same wherever the object appears; pass it to `node(id:)`' },
  },
  scopeAuth: {
    authScopes: () => ({}),
    // A refused rule throws the domain's own error (Login required / access denied), which
    // errors.ts maps to the code the root field gives; it is not turned into a ForbiddenError.
    treatErrorsAsUnauthorized: false,
  },
  prisma: {
    client: (ctx) => ctx.deps.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    onUnusedQuery: null,
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC',
  serialize: (value) => isoString(value),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('invalid DateTime');
    return date;
  },
});

builder.queryType({});
builder.mutationType({});
