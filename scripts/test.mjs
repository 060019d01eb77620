// `npm test`: generate the typed GraphQL operations, type-check, run the suite on SQLite, then
// run it again on PostgreSQL when TEST_DATABASE_URL names a server (each test world gets a
// fresh database there; see test/helpers/postgres.ts). Arguments go to vitest (a file filter).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (label, command, commandArgs, env = {}) => {
  process.stdout.write(`\n== ${label}\n`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('GraphQL Code Generator', 'npm', ['run', '-s', 'codegen']);
run('type-check', 'npx', ['--no-install', 'tsc', '--noEmit']);
run('tests on SQLite', 'npx', ['--no-install', 'vitest', 'run', ...args]);
if (process.env.TEST_DATABASE_URL) {
  run(`tests on PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`, 'npx', ['--no-install', 'vitest', 'run', ...args], { TEST_DB: 'postgres' });
} else {
  process.stdout.write('\n== tests on PostgreSQL: skipped (TEST_DATABASE_URL not set; e.g. postgresql://postgres@127.0.0.1:5432/postgres)\n');
}
