// `npm start` rebuilds the server bundle when any file it is built from changed, not only those
// under src/ (issue #23: an edit under rest-compat/ used to be served from the old bundle).
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { buildServer, serverIsStale } from '../../scripts/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let outDir: string;
let builtAt: number;

/** Runs `check` with `file` dated `offsetMs` after the bundle, then gives the file its date back. */
function withFileDated(file: string, offsetMs: number, check: () => void) {
  const full = path.join(root, file);
  const { atime, mtime } = statSync(full);
  utimesSync(full, atime, new Date(builtAt + offsetMs));
  try {
    check();
  } finally {
    utimesSync(full, atime, mtime);
  }
}

beforeAll(async () => {
  // A private bundle under the root (dist/ of the project stays as it is).
  outDir = mkdtempSync(path.join(root, 'dist-staleness-'));
  await buildServer(outDir);
  builtAt = statSync(path.join(outDir, 'server.mjs')).mtimeMs;
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('records every file the bundle is built from, rest-compat/ and the generated client included', () => {
  const inputs: string[] = JSON.parse(readFileSync(path.join(outDir, 'server.inputs.json'), 'utf8'));
  expect(inputs).toContain('src/server.ts');
  expect(inputs).toContain('rest-compat/healthchecks/ping-routes.ts');
  expect(inputs).toContain('rest-compat/campus/routes.ts');
  expect(inputs.some((i) => i.startsWith('src/generated/prisma/'))).toBe(true);
  expect(inputs.some((i) => i.startsWith('node_modules/'))).toBe(false);
});

it('is fresh right after a build', () => {
  expect(serverIsStale(outDir)).toBe(false);
});

it('is stale after an edit under rest-compat/, src/ or the generated client', () => {
  for (const file of ['rest-compat/healthchecks/ping-routes.ts', 'src/composition.ts', 'src/generated/prisma/client.ts']) {
    withFileDated(file, 10_000, () => expect(serverIsStale(outDir), file).toBe(true));
  }
});

it('stays fresh when a file outside the bundle changes (tests, the web app)', () => {
  withFileDated('test/scripts/start-staleness.test.ts', 10_000, () => expect(serverIsStale(outDir)).toBe(false));
  withFileDated('web/main.tsx', 10_000, () => expect(serverIsStale(outDir)).toBe(false));
});

it('is stale when a file it was built from is gone, or the bundle is', () => {
  const list = path.join(outDir, 'server.inputs.json');
  const inputs = readFileSync(list, 'utf8');
  writeFileSync(list, JSON.stringify([...JSON.parse(inputs), 'rest-compat/removed-since.ts']));
  utimesSync(path.join(outDir, 'server.mjs'), new Date(builtAt), new Date(builtAt));
  expect(serverIsStale(outDir)).toBe(true);
  writeFileSync(list, inputs);
  expect(serverIsStale(outDir)).toBe(false);
  rmSync(path.join(outDir, 'server.mjs'));
  expect(serverIsStale(outDir)).toBe(true);
});
