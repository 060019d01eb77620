// /readyz: may this instance take traffic? The database answers, every committed migration is
// applied (the CLI's own test, src/db/state.ts) and, with REDIS_URL, the event fan-out is up.
// /healthz stays the liveness probe: a restart does not bring a database back.
import type { Logger } from 'pino';
import { databaseState, type DatabaseState } from '../db/state.ts';

export type CheckName = 'database' | 'migrations' | 'redis';

export interface Readiness {
  ready: boolean;
  /** Each check: `ok`, or a short reason; `redis` only when REDIS_URL is set. */
  checks: Partial<Record<CheckName, string>>;
  /** The checks that are not `ok`, in order. */
  failing: CheckName[];
}

export interface ReadinessSources {
  databaseUrl: string;
  /** The Redis fan-out's state when REDIS_URL is set; null without Redis. */
  redisUp: (() => boolean) | null;
  log: Logger;
  /** How long the database may take to answer before it counts as unreachable. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2000;

/**
 * A probe function; concurrent probes share one database look (each look opens a plain
 * read-only connection, like the CLI, so it never waits on the server's pool or its locks).
 */
export function createReadinessProbe(sources: ReadinessSources): () => Promise<Readiness> {
  const timeoutMs = sources.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let inFlight: Promise<Readiness> | null = null;
  let lastReady: boolean | null = null;
  const probe = async (): Promise<Readiness> => {
    const checks: Readiness['checks'] = {};
    try {
      Object.assign(checks, fromState(await withTimeout(databaseState(sources.databaseUrl), timeoutMs)));
    } catch (err) {
      // The reason goes to the log only: /readyz is public, and the message names the database.
      checks.database = 'unreachable';
      checks.migrations = 'unknown';
      if (lastReady !== false) sources.log.warn({ err }, 'readiness: database unreachable');
    }
    if (sources.redisUp) checks.redis = sources.redisUp() ? 'ok' : 'unreachable';
    const failing = (Object.keys(checks) as CheckName[]).filter((k) => checks[k] !== 'ok');
    const ready = failing.length === 0;
    // One line per change, not one per probe: a balancer probes every few seconds.
    if (lastReady !== ready && lastReady !== null) {
      if (ready) sources.log.info('readiness: ready');
      else sources.log.warn({ checks }, 'readiness: not ready');
    }
    lastReady = ready;
    return { ready, checks, failing };
  };
  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

function fromState(state: DatabaseState): Readiness['checks'] {
  switch (state.kind) {
    case 'ready':
      return { database: 'ok', migrations: 'ok' };
    case 'pending':
      return { database: 'ok', migrations: `pending: ${state.names.join(', ')}` };
    case 'unmigrated':
      return { database: 'ok', migrations: 'none applied' };
    case 'missing':
      return { database: 'missing', migrations: 'unknown' };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
