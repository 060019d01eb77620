// Group commit for pings. A ping waits in memory only until the transaction that holds it
// commits; that transaction writes every ping queued while the previous one was committing
// (at most MAX_BATCH), so at high load a few transactions carry thousands of pings while a lone
// ping still commits at once. The store says how many batches may be in flight side by side
// (SQLite 1, PostgreSQL 2: store.ts parallelBatches). Each request is answered after its own
// transaction commits: nothing acknowledged is lost, and a failed transaction fails exactly the
// pings it carried.
import type { Check, Ping } from '../../generated/prisma/client.ts';
import { conflict, notFound } from '../../shared/errors.ts';
import type { MonitoringDeps } from '../context.ts';
import type { PendingFlip } from '../flips/pending-flip.ts';
import { CheckWriteEvents } from '../write-events.ts';
import { applyPing } from './apply-ping.ts';
import { classifyBody, type PingKind } from './classify.ts';
import type { PingRequest } from './request.ts';
import type { LoadedChecks, NewPing, PingStore, PingTargets, PingTx, PingWrites } from './store.ts';
import { andThen, queueFlipNotifications, type MaybePromise } from '../notifications/outbox.ts';

export type PingTarget = { code: string } | { checkId: number };

const MAX_BATCH = 1000;
// A busy error comes after SQLite's 5 s busy timeout, with the event loop blocked meanwhile:
// retry, but not for long.
const MAX_ATTEMPTS = 3;
const UA_MAX = 200;

interface Pending {
  target: PingTarget;
  req: PingRequest;
  at: Date;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Another writer (an API call, another process) changed a check between read and write. */
class LostRace extends Error {}

// PostgreSQL picked this batch as a deadlock's victim and rolled it back: nothing was written.

interface BatchResult<P> {
  missing: Set<P>;
  pings: Array<{ check: Check; ping: Ping }>;
  flips: PendingFlip[];
}

export class PingIngest {
  #queue: Pending[] = [];
  /** The batches being written: at most the store's parallelBatches. */
  #inFlight = new Set<Promise<void>>();
  /** The look at the queue due at the end of this turn of the event loop, if any. */
  #scheduled: Promise<void> | null = null;
  constructor(
    private deps: MonitoringDeps,
    private store: PingStore,
  ) {}

  /** Resolves once the ping is committed; rejects with NOT_FOUND for an unknown check. */
  submit(target: PingTarget, req: PingRequest): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ target, req, at: this.deps.clock.now(), resolve, reject });
      // Requests that arrive in the same turn of the event loop share a transaction.
      this.#scheduled ??= new Promise<void>((r) => setImmediate(r)).then(() => {
        this.#scheduled = null;
        this.#startBatches();
      });
    });
  }

  /** Resolves when every ping submitted so far is committed (or failed). */
  async drain(): Promise<void> {
    while (this.#scheduled || this.#inFlight.size) await Promise.all([this.#scheduled, ...this.#inFlight]);
  }

  // A batch starts when a slot is free; with every slot taken, pings queue for the first batch
  // to finish, which starts the next with all of them (group commit). Batches side by side
  // share checks safely: each locks its checks in id order (no deadlock between them), and one
  // that waits for a row another holds reads it as that one committed it (READ COMMITTED), so
  // a check's pings are numbered on in commit order.
  #startBatches() {
    const slots = Math.max(1, this.store.parallelBatches);
    while (this.#queue.length && this.#inFlight.size < slots) {
      const written: Promise<void> = this.#writeBatch(this.#queue.splice(0, MAX_BATCH)).finally(() => {
        this.#inFlight.delete(written);
        this.#startBatches();
      });
      this.#inFlight.add(written);
    }
  }

  /** Never rejects: a failed batch fails its own pings. */
  async #writeBatch(batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // The batch's events are recorded with its writes (where they fan out), published after its commit.
        let events = new CheckWriteEvents(this.deps.events, this.deps.clock);
        const result = await this.store.transaction((tx) =>
          andThen(writePings(tx, batch, this.deps.settings.pingBodyLimit), (written) => {
            events = new CheckWriteEvents(this.deps.events, this.deps.clock);
            for (const { check, ping } of written.pings) {
              events.add('ping', { projectId: check.projectId, checkId: check.id, ping });
              events.changed('ping', check);
            }
            events.flips(written.flips);
            return andThen(events.recordWith((rows) => tx.insertEvents(rows)), () => written);
          }),
        );
        this.#settle(batch, result, events);
        return;
      } catch (err) {
        if ((err instanceof LostRace || this.deps.storage.database.isRetryable(err)) && attempt < MAX_ATTEMPTS) continue;
        const failure = err instanceof LostRace ? conflict('too many concurrent changes to this check, try again') : err;
        for (const p of batch) p.reject(failure);
        return;
      }
    }
  }

  #settle(batch: Pending[], result: BatchResult<Pending>, events: CheckWriteEvents) {
    for (const p of batch) {
      if (result.missing.has(p)) p.reject(notFound('not found'));
      else p.resolve();
    }
    events.publish(this.deps.db);
  }
}

function requestedKind(req: PingRequest, check: Check): PingKind {
  if (req.classify) return req.classify(check);
  if (check.methods === 'POST' && req.method !== 'POST') return 'ign';
  let kind: PingKind = req.signal;
  if (req.exitStatus !== undefined && req.exitStatus > 0) kind = 'fail';
  if (check.filterHttpBody) kind = classifyBody(req.body.toString('utf8'), check);
  return kind;
}

/** The checks a batch names, each once. */
export function pingTargets(batch: ReadonlyArray<{ target: PingTarget }>): PingTargets {
  const codes = new Set<string>();
  const ids = new Set<number>();
  for (const { target } of batch) {
    if ('code' in target) codes.add(target.code);
    else ids.add(target.checkId);
  }
  return { codes: [...codes], ids: [...ids] };
}

export interface PingPlan<P> extends BatchResult<P> {
  writes: PingWrites;
}

/**
 * The batch applied, in arrival order, to in-memory copies of the checks as read: the pure
 * middle of a ping transaction, the same on every database. Ping ids are 0 until written.
 */
export function planPings<P extends { target: PingTarget; req: PingRequest; at: Date }>(
  batch: readonly P[],
  loaded: LoadedChecks,
  bodyLimit: number | null,
): PingPlan<P> {
  const byCode = new Map<string, Check>();
  const byId = new Map<number, Check>();
  for (const c of loaded.checks) {
    byCode.set(c.code, c);
    byId.set(c.id, c);
  }
  const current = new Map<number, Check>();
  const plan: PingPlan<P> = { missing: new Set(), pings: [], flips: [], writes: { checks: [], pings: [], flips: [], prunes: [] } };
  for (const p of batch) {
    const found = 'code' in p.target ? byCode.get(p.target.code) : byId.get(p.target.checkId);
    if (!found) {
      plan.missing.add(p);
      continue;
    }
    const check = current.get(found.id) ?? found;
    const rid = p.req.rid ? p.req.rid.toLowerCase() : null;
    const outcome = applyPing(check, requestedKind(p.req, check), rid, p.at);
    const after = { ...check, ...outcome.changes };
    current.set(found.id, after);
    const body = bodyLimit === null ? p.req.body : p.req.body.subarray(0, bodyLimit);
    const row: NewPing = {
      checkId: found.id,
      n: after.nPings,
      createdAt: p.at,
      kind: outcome.kind,
      scheme: p.req.scheme,
      remoteAddr: p.req.remoteAddr,
      method: p.req.method,
      ua: p.req.ua.slice(0, UA_MAX),
      rid,
      exitStatus: p.req.exitStatus ?? null,
      body: body.length ? (body as Uint8Array<ArrayBuffer>) : null,
    };
    plan.writes.pings.push(row);
    plan.pings.push({ check: after, ping: { id: 0, ...row } });
    if (outcome.flip) {
      plan.flips.push({ check: after, ...outcome.flip, at: p.at, processed: null });
      plan.writes.flips.push({ checkId: found.id, createdAt: p.at, ...outcome.flip });
    }
  }
  for (const [id, after] of current) {
    const before = byId.get(id)!;
    plan.writes.checks.push({ before, after });
    // Healthchecks prunes at every 100th ping: keep the pings the API can still list.
    if (Math.floor(after.nPings / 100) > Math.floor(before.nPings / 100)) {
      plan.writes.prunes.push({ checkId: id, n: after.nPings - loaded.pingLogLimit(after.projectId) });
    }
  }
  return plan;
}

/** One batch's transaction: read, plan, write, queue the flips' notifications. */
function writePings(tx: PingTx, batch: Pending[], bodyLimit: number | null): MaybePromise<BatchResult<Pending>> {
  return andThen(tx.load(pingTargets(batch)), (loaded) => {
    const plan = planPings(batch, loaded, bodyLimit);
    return andThen(tx.write(plan.writes), (ids) => {
      if (!ids) throw new LostRace();
      plan.pings.forEach((p, i) => (p.ping.id = ids.pingIds[i]!));
      // The outbox: the flips' notifications commit (or roll back) with them.
      const flips = plan.flips.map((f, i) => ({ checkId: f.check.id, flipId: ids.flipIds[i]!, oldStatus: f.oldStatus, newStatus: f.newStatus, at: f.at, sendAt: f.at }));
      return andThen(queueFlipNotifications(tx, flips), (): BatchResult<Pending> => ({ missing: plan.missing, pings: plan.pings, flips: plan.flips }));
    });
  });
}
