// The storage boundary (STYLE.md, issue #13): domain and transport code reach the database only
// through Prisma and the ports; drivers, dialect SQL and "which database is this?" live in the
// store files chosen at start (monitoring/storage.ts, campus/search-storage.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOTS = ['src/monitoring', 'src/campus', 'src/links', 'src/graphql', 'rest-compat'];
/** Files that implement a port for one database, or choose the implementations. */
const STORE_FILE = /(^|\/)(sqlite-[\w-]+|postgres-[\w-]+|storage|search-storage|latest-pings-store)\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

it('no domain or transport file imports a database driver or branches on the database', () => {
  const offenders: string[] = [];
  for (const file of ROOTS.flatMap(sources)) {
    if (STORE_FILE.test(file)) continue;
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    const imports = /from '(better-sqlite3|pg|@prisma\/adapter-[\w-]+)'/.exec(code);
    if (imports) offenders.push(`${file}: imports ${imports[1]}`);
    if (/\bprovider\s*[!=]==?|['"](sqlite|postgresql)['"]/.test(code)) offenders.push(`${file}: branches on the database`);
    if (/FOR (NO KEY )?UPDATE|pg_advisory|PRAGMA|sqlite_master/.test(code)) offenders.push(`${file}: dialect SQL`);
  }
  expect(offenders).toEqual([]);
});

it('finds the store files it exempts (the pattern still matches the layout)', () => {
  const stores = ROOTS.flatMap(sources).filter((f) => STORE_FILE.test(f));
  for (const expected of ['src/monitoring/storage.ts', 'src/monitoring/pings/postgres-store.ts', 'src/monitoring/pings/sqlite-store.ts', 'src/campus/search-storage.ts']) {
    expect(stores).toContain(expected);
  }
});
