// One database transaction per campus write request (issue #11: a 5xx rolls back the request's
// effects). A record, its contact points, memberships and tags, or every item of a /save or
// /destroy batch, commit together or not at all; the record events they cause are published
// only after the commit, so a subscriber never hears of a write that was rolled back.
import type { Db } from '../db/client.ts';
import type { GatewayEventMap } from '../events/bus.ts';
import { TransactionEvents, type DurableTopic } from '../events/outbox.ts';
import { DomainError } from '../shared/errors.ts';
import type { CampusDeps } from './lookup.ts';

interface Open {
  /** Publications held back until the transaction commits. */
  pending: Array<() => void>;
  /** Events recorded in the transaction (outbox.ts) and published after it. */
  events: TransactionEvents | null;
  savepoints: number;
}

/** The deps that run inside an open transaction (their `db` is the transaction's client). */
const open = new WeakMap<CampusDeps, Open>();

/**
 * Interactive transactions are rolled back at this age (Prisma's default, 5 s, is short for a
 * 1,000-item /save). Passwords are hashed before a transaction opens, so it only waits on the
 * database; on SQLite it holds the one connection meanwhile, so the bound stays modest.
 */
const TIMEOUT_MS = 20_000;
/** How long a write waits to begin while another holds SQLite's connection or PostgreSQL's pool. */
const MAX_WAIT_MS = 10_000;

/**
 * Runs `work` in one transaction, with deps whose `db` is the transaction: everything it writes
 * commits together, or nothing does if it throws. Called inside another campus transaction,
 * `work` joins it. `publish` calls made through the deps wait for the commit.
 */
export async function writeTransaction<T>(deps: CampusDeps, work: (tx: CampusDeps) => Promise<T>): Promise<T> {
  if (open.has(deps)) return work(deps);
  const state: Open = { pending: [], events: deps.events ? new TransactionEvents(deps.events, deps.clock) : null, savepoints: 0 };
  const result = await deps.db.$transaction(
    async (db) => {
      const tx: CampusDeps = { ...deps, db: db as Db };
      open.set(tx, state);
      const out = await work(tx);
      await state.events?.record(db);
      return out;
    },
    { timeout: TIMEOUT_MS, maxWait: MAX_WAIT_MS },
  );
  state.events?.publish(deps.db);
  for (const publish of state.pending) publish();
  return result;
}

/** Calls `publish` after the transaction `deps` run in commits; outside one, at once. */
export function afterCommit(deps: CampusDeps, publish: () => void): void {
  const state = open.get(deps);
  if (state) state.pending.push(publish);
  else publish();
}

/** An event of the write `deps` runs in: committed with it, published after it; outside a transaction, at once. */
export function commitEvent<K extends DurableTopic>(deps: CampusDeps, topic: K, payload: GatewayEventMap[K][0]): void {
  const state = open.get(deps);
  if (state) state.events?.add(topic, payload);
  else (deps.events?.emit as ((topic: K, payload: unknown) => boolean) | undefined)?.call(deps.events, topic, payload);
}

/**
 * One item of a batch inside its transaction: if it fails with a domain error (a refusal or a
 * validation failure the batch reports per item), whatever it wrote is undone and its events
 * dropped while the other items stand. Any other error is a fault and ends the whole batch.
 */
export async function batchItem<T>(deps: CampusDeps, work: () => Promise<T>): Promise<T> {
  const state = open.get(deps);
  if (!state) throw new Error('batchItem runs inside writeTransaction');
  // Savepoint names are ours (a counter), never input.
  const name = `campus_item_${++state.savepoints}`;
  const published = state.pending.length;
  const held = state.events?.size ?? 0;
  const savepoints = deps.database.savepoints;
  await savepoints.open(deps.db, name);
  try {
    const result = await work();
    await savepoints.release(deps.db, name);
    return result;
  } catch (err) {
    if (err instanceof DomainError) {
      await savepoints.rollback(deps.db, name);
      state.pending.length = published;
      state.events?.truncate(held);
    }
    throw err;
  }
}
