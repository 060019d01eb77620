import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadMigrationList, migrate } from '../../src/db/migrate.ts';
import { diffMigrationsToSchema } from '../../src/db/schema-diff.ts';

it('has a migration for every change in schema.prisma', async () => {
  // Fails when schema.prisma changed without `npm run migration:new -- <name>`.
  expect(await diffMigrationsToSchema()).toBe('');
});

it('applies migrations once, creating the database folder, and then reports nothing to do', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-migrate-'));
  try {
    const url = `file:${dir}/nested/folder/db.sqlite`;
    const all = (await loadMigrationList()).migrationDirectories.map((d) => d.path);
    expect(all[0]).toBe('20261122112300_init');
    expect(await migrate(url)).toEqual(all);
    expect(await migrate(url)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
