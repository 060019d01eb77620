// Tests mirror the code (STYLE.md; issue #23): a test folder is named after the source folder it
// tests, so the tests of a module are found where the module is. Only the cross-cutting suites
// (below) have folders of their own.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Suites about the whole rather than one folder: fixtures (helpers, and data files such as another product's exports), layering, contracts over both transports, processes, fuzzing, installation. */
const CROSS_CUTTING = ['helpers', 'fixtures', 'architecture', 'contract', 'e2e', 'fuzz', 'install'];
/** Where a test folder's source may be: test/<x> mirrors src/<x>, <x> (rest-compat, web, scripts, bench). */
const SOURCE_ROOTS = ['src', '.'];

function folders(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    return statSync(path.join(root, rel)).isDirectory() ? [rel, ...folders(rel)] : [];
  });
}

const isDir = (rel: string) => {
  try {
    return statSync(path.join(root, rel)).isDirectory();
  } catch {
    return false;
  }
};

it('names every test folder after the source folder it tests', () => {
  const orphans = folders('test')
    .map((f) => path.relative('test', f))
    .filter((f) => !CROSS_CUTTING.includes(f.split(path.sep)[0]!) && !f.startsWith(`graphql${path.sep}operations`))
    .filter((f) => !SOURCE_ROOTS.some((r) => isDir(path.join(r, f))));
  expect(orphans).toEqual([]);
});

it('gives the campus domain tests of its own, not only through the transports', () => {
  const tests = readdirSync(path.join(root, 'test/campus')).filter((f) => f.endsWith('.test.ts')).length;
  expect(tests).toBeGreaterThanOrEqual(10);
});
