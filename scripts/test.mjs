// `npm test`: generate the typed GraphQL operations, type-check, run the suite on SQLite, then
// run it again on PostgreSQL when TEST_DATABASE_URL names a server (each test world gets a
// fresh database there; see test/helpers/postgres.ts), without the Chromium tests. Arguments go to vitest (a file filter).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const run = (label, command, commandArgs, env = {}) => {
  process.stdout.write(`\n== ${label}\n`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('GraphQL Code Generator', 'npm', ['run', '-s', 'codegen']);
run('type-check', 'npx', ['--no-install', 'tsc', '--noEmit']);
// The SQLite pass marks the files whose tests depend on the pass (test/helpers/database-pass.ts).
const marks = process.env.TEST_DATABASE_URL ? mkdtempSync(path.join(os.tmpdir(), 'gateway-database-pass-')) : undefined;
run('tests on SQLite', 'npx', ['--no-install', 'vitest', 'run', ...args], marks ? { TEST_DATABASE_PASS_MARKS: marks } : {});
if (marks) {
  const marked = readdirSync(marks).map((name) => readFileSync(path.join(marks, name), 'utf8')).sort();
  rmSync(marks, { recursive: true, force: true });
  // Only the files that asked which database is under test: every other file runs the same
  // code on either pass (pure functions, or a database of its own choosing).
  process.stdout.write(`\n(the PostgreSQL pass runs the ${marked.length} test files that use the database under test; the others ran the same code in the SQLite pass)\n`);
  // The Chromium tests drive the screens, which read and write through the same GraphQL API
  // the PostgreSQL pass covers: they run once, in the SQLite pass.
  process.stdout.write('\n(the Chromium tests, *.browser.test.ts, ran in the SQLite pass and are not repeated)\n');
  // Tests that choose their database themselves (an SQLite file, their own PostgreSQL database
  // behind a proxy) or none would run the same twice: once is enough.
  const samePass = [
    'test/architecture/**',
    'test/deploy/**',
    'test/cli/backup.test.ts',
    'test/db/migration-applier.test.ts',
    'test/db/postgres-connection-errors.test.ts',
    'test/e2e/every-kind-kill9.test.ts',
    'test/e2e/postgres-outage.test.ts',
    'test/e2e/stalled-log-reader.test.ts',
    'test/shared/log-destination.test.ts',
  ];
  process.stdout.write(`(tests that choose their own database ran once, in the SQLite pass: ${samePass.join(', ')})\n`);
  const excluded = ['**/*.browser.test.ts', '**/node_modules/**', ...samePass].flatMap((glob) => ['--exclude', glob]);
  // A whole run with no file marked means the marking broke: the PostgreSQL pass would pass by running nothing.
  if (marked.length === 0 && args.length === 0) {
    process.stderr.write('no test file was marked as using the database under test (test/helpers/database-pass.ts): the PostgreSQL pass would run nothing\n');
    process.exit(1);
  }
  if (marked.length === 0) process.stdout.write('(no test file used the database under test)\n');
  else run(`tests on PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`, 'npx', ['--no-install', 'vitest', 'run', ...excluded, ...marked], { TEST_DB: 'postgres' });
} else {
  process.stdout.write('\n== tests on PostgreSQL: skipped (TEST_DATABASE_URL not set; e.g. postgresql://postgres@127.0.0.1:5432/postgres)\n');
}
