// The storage boundary (STYLE.md; issues #13 and #23): code outside src/db/ and the store files
// reaches the database only through Prisma's portable queries and the ports (src/db/port.ts,
// src/monitoring/ports.ts, src/campus/search.ts). Drivers, SQL, dialect error codes and "which
// database is this?" live in src/db/ and in the store files the composition picks.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourcesUnder } from './import-graph.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Every folder of the project's code, except src/db (the database layer itself). */
const ROOTS = ['src', 'rest-compat', 'web'];
const EXEMPT_DIRS = ['src/db/', 'src/generated/'];
/** Files that implement a port for one database, or choose the implementations. */
const STORE_FILE = /(^|\/)(sqlite-[\w-]+|postgres-[\w-]+|storage|search-storage|latest-pings-store)\.ts$/;

const RULES: Array<[what: string, pattern: RegExp]> = [
  ['imports a database driver', /from ['"](better-sqlite3|pg|pg-[\w-]+|@prisma\/adapter-[\w-]+)['"]|import\(['"](better-sqlite3|pg)['"]\)/],
  ['sends raw SQL', /\$(queryRaw|executeRaw)(Unsafe)?\b/],
  ['holds SQL text', /[`'"]\s*(SELECT\s|INSERT INTO|UPDATE\s+"|DELETE FROM|PRAGMA\s|SAVEPOINT\s|RELEASE SAVEPOINT|ROLLBACK TO|BEGIN IMMEDIATE)/],
  ['branches on the database', /\bprovider\s*[!=]==?|['"](sqlite|postgresql)['"]\s*[!=]==?|[!=]==?\s*['"](sqlite|postgresql)['"]/],
  ['reads a dialect error code', /\b40P01\b|\b40001\b|\b23505\b|SQLITE_[A-Z]+/],
  ['uses dialect SQL', /FOR (NO KEY )?UPDATE|SKIP LOCKED|pg_advisory|sqlite_master/],
];

/** What a file breaks of the rules, comments aside. */
export function offenses(code: string): string[] {
  const stripped = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return RULES.filter(([, pattern]) => pattern.test(stripped)).map(([what]) => what);
}

const guarded = () =>
  ROOTS.flatMap((dir) => sourcesUnder(root, dir)).filter((file) => !EXEMPT_DIRS.some((d) => file.startsWith(d)) && !STORE_FILE.test(file));

it('no file outside src/db and the store files imports a driver, writes SQL, reads a dialect error code or branches on the database', () => {
  const found = guarded().flatMap((file) => offenses(readFileSync(path.join(root, file), 'utf8')).map((what) => `${file}: ${what}`));
  expect(found).toEqual([]);
});

it('looks at every layer (and the store files it exempts are where the layout says)', () => {
  const files = guarded();
  for (const layer of ['src/app.ts', 'src/composition.ts', 'src/monitoring/pings/ingest.ts', 'src/campus/transaction.ts', 'src/graphql/server/yoga.ts', 'rest-compat/healthchecks/api-routes.ts', 'web/main.tsx']) {
    expect(files).toContain(layer);
  }
  const stores = ROOTS.flatMap((dir) => sourcesUnder(root, dir)).filter((f) => STORE_FILE.test(f));
  for (const expected of ['src/monitoring/storage.ts', 'src/monitoring/pings/postgres-store.ts', 'src/monitoring/pings/sqlite-store.ts', 'src/campus/search-storage.ts']) {
    expect(stores).toContain(expected);
  }
});

describe('the rules catch what they name', () => {
  it.each([
    ["import pg from 'pg';", 'imports a database driver'],
    ["import type Database from 'better-sqlite3';", 'imports a database driver'],
    ["await deps.db.$queryRawUnsafe('SELECT 1');", 'sends raw SQL'],
    ['await tx.$executeRaw`SAVEPOINT x`;', 'sends raw SQL'],
    ["const q = 'SELECT 1 FROM \"Check\"';", 'holds SQL text'],
    ["if (opened.provider === 'sqlite') tune();", 'branches on the database'],
    ["const deadlock = err.code === '40P01';", 'reads a dialect error code'],
    ["if (code.startsWith('SQLITE_BUSY')) retry();", 'reads a dialect error code'],
  ])('%s', (code, what) => {
    expect(offenses(code)).toContain(what);
  });

  it('ignores comments and portable code', () => {
    expect(offenses("// SELECT 1 FROM x, SQLITE_BUSY, provider === 'sqlite'\nconst url = 'https://x'; await db.check.findMany({ where: { id: 1 } });")).toEqual([]);
  });
});
