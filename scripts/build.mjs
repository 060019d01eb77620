// Bundles the server into dist/server.mjs with esbuild (packages stay external), so a start
// loads one file instead of transpiling ~150 TypeScript modules through tsx's loader: about a
// second less to the first served request. Beside it, server.inputs.json lists every file the
// bundle was built from (esbuild's metafile): `npm start` rebuilds when any of them changed or
// went away (serverIsStale), wherever it lives (src/, rest-compat/, the generated client).
// `npm run build` also bundles the dashboard (web/, build-web.mjs).
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildWeb } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes server.mjs into `outDir` (tests build a private copy there; it must be under the root). */
export async function buildServer(outDir = path.join(root, 'dist')) {
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, 'src/server.ts')],
    outfile: path.join(outDir, 'server.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    metafile: true,
    // Inputs are then named relative to the project root, wherever the build was started.
    absWorkingDir: root,
  });
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));
  writeFileSync(path.join(outDir, 'server.inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
  // Loaded by URL next to the bundle (db/sqlite/checkpointer.ts).
  copyFileSync(path.join(root, 'src/db/sqlite/checkpoint-worker.mjs'), path.join(outDir, 'checkpoint-worker.mjs'));
}

/**
 * Whether `outDir`'s bundle must be rebuilt: it is missing, or a file it was built from (or this
 * script) changed after it, or went away.
 */
export function serverIsStale(outDir = path.join(root, 'dist')) {
  const bundle = path.join(outDir, 'server.mjs');
  const list = path.join(outDir, 'server.inputs.json');
  if (!existsSync(bundle) || !existsSync(list)) return true;
  const builtAt = statSync(bundle).mtimeMs;
  // esbuild names inputs relative to the working directory it ran in: the project root.
  const inputs = JSON.parse(readFileSync(list, 'utf8')).map((input) => path.resolve(root, input));
  return [...inputs, fileURLToPath(import.meta.url)].some((file) => !existsSync(file) || statSync(file).mtimeMs > builtAt);
}

if (import.meta.url === `file://${process.argv[1]}`) await Promise.all([buildServer(), buildWeb(root)]);
