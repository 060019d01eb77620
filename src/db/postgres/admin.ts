// Databases on a PostgreSQL server, for the scratch databases of schema diffs and for tests
// (each test world gets a fresh database, copied from a migrated template).
import pg from 'pg';
import { keepConnectionErrorsFromCrashing } from './connection-errors.ts';

/** The same server, another database: `postgresql://u@h:5432/a` → `…/name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  return `"${name}"`;
};

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  // CREATE/DROP DATABASE cannot run in the database concerned: talk to "postgres".
  const client = keepConnectionErrorsFromCrashing(new pg.Client({ connectionString: withDatabase(url, 'postgres') }));
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function createDatabase(url: string, name: string, template?: string): Promise<void> {
  return onServer(url, async (c) => {
    await c.query(`CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ''}`);
  });
}

export function dropDatabase(url: string, name: string): Promise<void> {
  return onServer(url, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
  });
}

export function databaseExists(url: string, name: string): Promise<boolean> {
  return onServer(url, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}
