// `npm start`: runs the bundled server (dist/server.mjs), bundling it first when it is missing
// or older than any file under src/ (see build.mjs for why the server runs bundled), and the
// dashboard's bundle when web/ changed (build-web.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer } from './build.mjs';
import { buildWeb, webIsStale } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/server.mjs');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

// A server unless told otherwise: graphql-js skips its development-only checks (about 2% of a
// large query's time).
process.env.NODE_ENV ??= 'production';

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestUnder(path.join(root, 'src'))) await buildServer();
if (webIsStale(root)) await buildWeb(root);
await import(pathToFileURL(bundle).href);
