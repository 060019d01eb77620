// Two builds of the server with esbuild.
// - `npm start` in a checkout (and the tests' private copies): src/server.ts bundled into
//   dist/server.mjs with packages external, so a start loads one file instead of transpiling
//   ~150 TypeScript modules through tsx's loader (about a second less to the first request).
//   Beside it, server.inputs.json lists every file the bundle was built from (esbuild's
//   metafile): `npm start` rebuilds when any of them changed or went away (serverIsStale).
// - `npm run build`, the production build: a self-contained dist/ (server.mjs, cli.mjs and their
//   shared chunk.*.mjs files with every package inside but the native ones, the migrations under
//   dist/prisma/, the dashboard under dist/web/), so production is `npm ci --omit=dev` (only
//   the native packages: better-sqlite3, sharp) and `node dist/server.mjs`; nothing is built at
//   start. src/paths.ts reads GATEWAY_SELF_CONTAINED to find its files there.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Packages left outside the production bundles: native addons (loaded from node_modules, so
 * they are the production install's only packages) and optional drivers we never load.
 */
export const NATIVE_PACKAGES = ['better-sqlite3', 'sharp'];
const NEVER_LOADED = ['pg-native'];

/** The folders of committed migrations, copied into the production build. */
const MIGRATION_DIRS = ['prisma/migrations', 'prisma/postgres/migrations'];

/** The production build into `outDir` (dist/ by default): see the head of this file. */
export async function buildProduction(outDir = path.join(root, 'dist')) {
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  mkdirSync(outDir, { recursive: true });
  const previous = readdirSync(outDir).filter((name) => name.startsWith('chunk.') || /^(server|cli)\.mjs(\.map)?$/.test(name));
  for (const stale of [...previous, 'prisma']) rmSync(path.join(outDir, stale), { recursive: true, force: true });
  const result = await build({
    entryPoints: { server: path.join(root, 'src/server.ts'), cli: path.join(root, 'src/cli/main.ts') },
    outdir: outDir,
    entryNames: '[name]',
    // Beside the entries, not in a folder: modules find their files from their own location
    // (paths.ts, the checkpoint worker), which must be dist/ in whichever chunk they land.
    chunkNames: 'chunk.[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...NATIVE_PACKAGES, ...NEVER_LOADED],
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __gatewayRequire } from 'node:module'; const require = __gatewayRequire(import.meta.url);" },
    define: { GATEWAY_SELF_CONTAINED: 'true', GATEWAY_VERSION: JSON.stringify(version) },
    // Stack traces name our files and lines; the packages' sources stay out of the maps' size.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    absWorkingDir: root,
  });
  copyFileSync(path.join(root, 'src/db/sqlite/checkpoint-worker.mjs'), path.join(outDir, 'checkpoint-worker.mjs'));
  const copied = [];
  for (const dir of MIGRATION_DIRS) {
    cpSync(path.join(root, dir), path.join(outDir, dir), { recursive: true });
    copied.push(dir);
  }
  await buildWeb(root);
  if (path.resolve(outDir) !== path.join(root, 'dist')) cpSync(path.join(root, 'dist/web'), path.join(outDir, 'web'), { recursive: true });
  // `npm start` runs this build while none of its inputs changed (the migrations included).
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')), ...copied];
  writeFileSync(path.join(outDir, 'server.inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
  return { outputs: Object.keys(result.metafile.outputs) };
}

if (import.meta.url === `file://${process.argv[1]}`) await buildProduction();
