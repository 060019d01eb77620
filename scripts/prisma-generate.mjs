// Runs `prisma generate` without letting the CLI download its native schema engine.
// Generation itself uses Prisma's bundled WASM; the CLI only checks that an engine binary
// exists, so we point it at the Node executable (always present). See docs/operations.md.
// A production install (`npm ci --omit=dev`) has no Prisma CLI and needs no client: the
// production build (dist/) carries the generated clients inside its bundles.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('prisma/schema.prisma')) process.exit(0);
if (!existsSync('node_modules/prisma/package.json')) {
  console.log('prisma generate skipped: no Prisma CLI here (a production install; dist/ carries the clients)');
  process.exit(0);
}
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
// Two clients from one model: SQLite's (the default) and PostgreSQL's (src/db/postgres/schema.ts).
for (const schema of ['prisma/schema.prisma', 'prisma/postgres/schema.prisma']) {
  if (!existsSync(schema)) continue;
  const result = spawnSync('npx', ['--no-install', 'prisma', 'generate', '--schema', schema], { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
