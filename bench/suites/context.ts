import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, dropDatabase, withDatabase } from '../../src/db/postgres/admin.ts';

export type BenchDb = 'sqlite' | 'postgres';

export interface BenchContext {
  /** Small sizes and short runs: keeps the benchmarks working in CI, proves no figure. */
  smoke: boolean;
  /** The database the suites run on: SQLite files (the default) or a PostgreSQL server. */
  db: BenchDb;
  /** PostgreSQL runs: the Redis that carries events between instances (fan-out suite). */
  redisUrl: string;
  /** A fresh, empty database for one suite: an SQLite file under this run's scratch folder, or a new PostgreSQL database dropped at cleanup. */
  database(name: string): Promise<string>;
  /** A path under this run's scratch folder. */
  file(name: string): string;
  cleanup(): Promise<void>;
}

export interface ContextOptions {
  smoke: boolean;
  db: BenchDb;
  /** PostgreSQL: a URL of the server (any database on it; the bench creates its own). */
  dbUrl: string;
  redisUrl: string;
}

// Bench databases are named after the process that made them, so a later run can drop those
// of a run that was killed before its cleanup.
const PREFIX = 'gateway_bench_';

export function createContext(o: ContextOptions): BenchContext {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  const made: string[] = [];
  let swept: Promise<void> | undefined;
  return {
    smoke: o.smoke,
    db: o.db,
    redisUrl: o.redisUrl,
    async database(name) {
      if (o.db === 'sqlite') return `file:${path.join(dir, `${name}.db`)}`;
      swept ??= dropOrphans(o.dbUrl);
      await swept;
      const db = `${PREFIX}${process.pid}_${randomBytes(3).toString('hex')}_${name.replace(/[^a-z0-9]+/g, '_')}`.slice(0, 63);
      await createDatabase(o.dbUrl, db);
      made.push(db);
      return withDatabase(o.dbUrl, db);
    },
    file: (name) => path.join(dir, name),
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
      for (const db of made) await dropDatabase(o.dbUrl, db);
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Drops the bench databases of runs whose process is gone. */
async function dropOrphans(url: string) {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  let names: string[];
  try {
    names = (await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [PREFIX])).rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
  for (const name of names) {
    const pid = Number(name.slice(PREFIX.length).split('_')[0]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await dropDatabase(url, name);
  }
}
