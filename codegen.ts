// GraphQL Code Generator: typed operations for clients and tests from the committed schema.
// `npm run codegen` writes src/generated/graphql/ (git-ignored, like the Prisma client).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.graphql'],
  ignoreNoDocuments: false,
  // ESM: relative imports carry their extension (TypeScript's NodeNext resolution needs it).
  emitLegacyCommonJSImports: false,
  generates: {
    'src/generated/graphql/': {
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true },
    },
  },
};

export default config;
