// Bundles the server into dist/server.mjs with esbuild (packages stay external), so a start
// loads one file instead of transpiling ~150 TypeScript modules through tsx's loader: about a
// second less to the first served request. `npm start` builds when src/ changed (start.mjs).
// `npm run build` also bundles the dashboard (web/, build-web.mjs).
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildWeb } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes server.mjs into `outDir` (tests build a private copy there; it must be under the root). */
export async function buildServer(outDir = path.join(root, 'dist')) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [path.join(root, 'src/server.ts')],
    outfile: path.join(outDir, 'server.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Loaded by URL next to the bundle (db/sqlite/checkpointer.ts).
  copyFileSync(path.join(root, 'src/db/sqlite/checkpoint-worker.mjs'), path.join(outDir, 'checkpoint-worker.mjs'));
}

if (import.meta.url === `file://${process.argv[1]}`) await Promise.all([buildServer(), buildWeb(root)]);
