// GraphQL Code Generator: typed operations for clients and tests from the committed schema.
// `npm run codegen` writes src/generated/graphql/ (git-ignored, like the Prisma client).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  // The dashboard's documents sit beside its screens (web/<screen>/operations.ts), each a
  // template literal led by the GraphQL magic comment; the screens import only types from here.
  documents: ['test/**/*.graphql', 'web/**/*.ts', 'web/**/*.tsx'],
  ignoreNoDocuments: false,
  // ESM: relative imports carry their extension (TypeScript's NodeNext resolution needs it).
  emitLegacyCommonJSImports: false,
  generates: {
    'src/generated/graphql/': {
      preset: 'client',
      // DateTime travels as an ISO 8601 string in JSON.
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string' } },
    },
  },
};

export default config;
