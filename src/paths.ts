// Where the server's files are. Two layouts:
// - a checkout (tests, `npm run dev`, `npm start`'s bundle in dist/): everything from the
//   repository's root folder (where package.json is), found from this module's location;
// - the production build (`npm run build`, scripts/build.mjs): dist/ holds the bundle, the
//   migrations (dist/prisma/) and the web assets (dist/web/), and the build defines
//   GATEWAY_SELF_CONTAINED and GATEWAY_VERSION, so nothing is read from outside dist/ but
//   node_modules' native packages.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

declare const GATEWAY_SELF_CONTAINED: boolean | undefined;
declare const GATEWAY_VERSION: string | undefined;

const here = path.dirname(fileURLToPath(import.meta.url));

/** True in the production build's bundles (dist/server.mjs, dist/cli.mjs). */
export const selfContained = typeof GATEWAY_SELF_CONTAINED !== 'undefined' && GATEWAY_SELF_CONTAINED === true;

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The repository's root (in the production build: the folder that holds dist/). */
export const projectRoot = selfContained ? path.dirname(here) : findRoot(here);

/** prisma/: the committed migrations of both databases. */
export const prismaRoot = selfContained ? path.join(here, 'prisma') : path.join(projectRoot, 'prisma');

/** The dashboard's built assets (index.html, assets/). */
export const webRoot = selfContained ? path.join(here, 'web') : path.join(projectRoot, 'dist', 'web');

/** The gateway's version (package.json's). */
export function gatewayVersion(): string {
  if (typeof GATEWAY_VERSION !== 'undefined' && GATEWAY_VERSION) return GATEWAY_VERSION;
  return JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;
}
