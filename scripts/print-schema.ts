// Prints the GraphQL schema, sorted, to schema.graphql. `--check` exits 1 when the committed
// file differs from the code (also enforced by test/graphql/schema.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/graphql/schema/schema.ts';

export const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema.graphql');
export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + '\n';

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const printed = printedSchema();
  if (process.argv.includes('--check')) {
    const committed = readFileSync(schemaFile, 'utf8');
    if (committed !== printed) {
      console.error('schema.graphql is out of date: run npm run schema:print');
      process.exit(1);
    }
    console.log('schema.graphql is up to date');
  } else {
    writeFileSync(schemaFile, printed);
    console.log(`wrote ${path.relative(process.cwd(), schemaFile)}`);
  }
}
