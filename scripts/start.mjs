// `npm start`: runs the bundled server (dist/server.mjs), bundling it first when it is missing
// or older than any file it is built from (build.mjs serverIsStale; see there for why the server
// runs bundled), and the dashboard's bundle when web/ changed (build-web.mjs).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, serverIsStale } from './build.mjs';
import { buildWeb, webIsStale } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/server.mjs');

// A server unless told otherwise: graphql-js skips its development-only checks (about 2% of a
// large query's time).
process.env.NODE_ENV ??= 'production';

if (serverIsStale()) await buildServer();
if (webIsStale(root)) await buildWeb(root);
await import(pathToFileURL(bundle).href);
