// `npm start`. In a checkout with its development packages: runs the bundled server
// (dist/server.mjs), bundling it first when it is missing or older than any file it is built
// from (build.mjs serverIsStale; see there for why the server runs bundled), and the
// dashboard's bundle when web/ changed (build-web.mjs). In a production install
// (`npm ci --omit=dev`, no esbuild): runs the production build (`npm run build`) as it is,
// building nothing.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/server.mjs');

// A server unless told otherwise: graphql-js skips its development-only checks (about 2% of a
// large query's time).
process.env.NODE_ENV ??= 'production';

function canBuild() {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return existsSync(path.join(root, 'src/server.ts'));
  } catch {
    return false;
  }
}

if (canBuild()) {
  const { buildServer, serverIsStale } = await import('./build.mjs');
  const { buildWeb, webIsStale } = await import('./build-web.mjs');
  if (serverIsStale()) await buildServer();
  if (webIsStale(root)) await buildWeb(root);
} else if (!existsSync(bundle)) {
  console.error('dist/server.mjs is missing: run `npm run build` where the development packages are installed (`npm ci`), then start this install.');
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
