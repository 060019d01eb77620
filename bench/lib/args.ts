// The command line of `npm run bench`: `--smoke`, `--only=ping,graphql`, `--db postgres` with
// `--db-url <url>` (a PostgreSQL server; the run makes and drops its own databases on it) and
// `--redis-url <url>` (the fan-out suite's Redis), `--soak <minutes>` (the soak run alone, on
// SQLite; fractions allowed). Flags take `--name value` or `--name=value`.
import type { BenchDb } from '../suites/context.ts';

export interface BenchArgs {
  smoke: boolean;
  only: string[] | undefined;
  db: BenchDb;
  dbUrl: string;
  redisUrl: string;
  /** `--soak <minutes>`: only the soak runs, this long (bench/suites/soak.ts). */
  soak: number | undefined;
}

export const DEFAULT_DB_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export class BenchArgsError extends Error {}

export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchArgs {
  const values = new Map<string, string>();
  let smoke = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--smoke') {
      smoke = true;
      continue;
    }
    const m = /^--(only|db|db-url|redis-url|soak)(?:=(.*))?$/.exec(arg);
    if (!m) throw new BenchArgsError(`unknown argument ${JSON.stringify(arg)}: expected --smoke, --only=<suites>, --db sqlite|postgres, --db-url <url>, --redis-url <url>, --soak <minutes>`);
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '') throw new BenchArgsError(`--${m[1]} needs a value`);
    values.set(m[1]!, value);
  }
  const db = values.get('db') ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres') throw new BenchArgsError(`--db must be sqlite or postgres, not ${JSON.stringify(db)}`);
  const dbUrl = values.get('db-url') ?? DEFAULT_DB_URL;
  if (values.has('db-url') && db !== 'postgres') throw new BenchArgsError('--db-url goes with --db postgres');
  if (!/^postgres(ql)?:\/\/[^/]/.test(dbUrl)) throw new BenchArgsError(`--db-url must be a postgresql:// URL, not ${JSON.stringify(dbUrl)}`);
  const redisUrl = values.get('redis-url') ?? env.REDIS_URL ?? DEFAULT_REDIS_URL;
  if (!/^rediss?:\/\/[^/]/.test(redisUrl)) throw new BenchArgsError(`--redis-url must be a redis:// URL, not ${JSON.stringify(redisUrl)}`);
  const only = values.get('only')?.split(',').map((s) => s.trim()).filter(Boolean);
  const soak = values.has('soak') ? Number(values.get('soak')) : undefined;
  if (soak !== undefined) {
    if (!Number.isFinite(soak) || soak <= 0) throw new BenchArgsError(`--soak takes a positive number of minutes, not ${JSON.stringify(values.get('soak'))}`);
    // The soak is one long run of its own: its figures mean nothing beside reduced sizes or other suites.
    if (smoke || only) throw new BenchArgsError('--soak runs alone: not with --smoke or --only');
    if (db !== 'sqlite') throw new BenchArgsError('--soak runs on SQLite only (the default --db)');
  }
  return { smoke, only, db, dbUrl, redisUrl, soak };
}
