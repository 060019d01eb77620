// Which test files the PostgreSQL pass runs again. A file's behaviour differs between the passes
// only where it asks postgresUnderTest() (a world's database, a skipIf): scripts/test.mjs sets
// TEST_DATABASE_PASS_MARKS to a folder in the SQLite pass, this setup file leaves one mark per
// file that asked, and the PostgreSQL pass runs exactly those. Every other file (pure functions,
// files that choose their own database) would run the same code twice.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const marks = process.env.TEST_DATABASE_PASS_MARKS;
// postgresUnderTest() sets this flag (it does not import this file: a second instance of it
// would reset the flag and register its hooks twice).
const flag = '__gatewayTestAskedForDatabase';
(globalThis as Record<string, unknown>)[flag] = false;

if (marks) {
  let file: string | undefined;
  // Vitest 4 hands the file's suite as the hook's second argument.
  beforeAll(({}, suite) => {
    file = 'filepath' in suite ? String(suite.filepath) : undefined;
  });
  afterAll(() => {
    if (!file || (globalThis as Record<string, unknown>)[flag] !== true) return;
    const relative = path.relative(process.cwd(), file);
    writeFileSync(path.join(marks, createHash('sha256').update(relative).digest('hex').slice(0, 16)), relative);
  });
}
