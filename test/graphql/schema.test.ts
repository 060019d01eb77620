import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { printedSchema, schemaFile } from '../../scripts/print-schema.ts';

it('schema.graphql matches the schema printed from the code (run npm run schema:print)', () => {
  expect(readFileSync(schemaFile, 'utf8')).toBe(printedSchema());
});
