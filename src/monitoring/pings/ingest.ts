// Group commit for pings. A ping waits in memory only until the transaction that holds it
// commits; that transaction writes every ping queued while the previous one was committing
// (at most MAX_BATCH), so at high load a few transactions carry thousands of pings while a lone
// ping still commits at once. Each request is answered after its own transaction commits:
// nothing acknowledged is lost, and a failed transaction fails exactly the pings it carried.
import { Prisma, type Check, type Ping } from '../../generated/prisma/client.ts';
import { conflict, notFound } from '../../shared/errors.ts';
import { isBusyError } from '../../db/busy.ts';
import type { MonitoringDeps } from '../context.ts';
import { publishCheckChanged, publishFlips, type PendingFlip } from '../flips/record.ts';
import { applyPing } from './apply-ping.ts';
import { classifyBody, type PingKind } from './classify.ts';
import type { PingRequest } from './request.ts';

export type PingTarget = { code: string } | { checkId: number };

const MAX_BATCH = 1000;
const MAX_ATTEMPTS = 5;
const UA_MAX = 200;

interface Pending {
  target: PingTarget;
  req: PingRequest;
  at: Date;
  resolve: () => void;
  reject: (err: unknown) => void;
}

type StoredCheck = Check & { project: { pingLogLimit: number } };
type NewPing = Omit<Ping, 'id'>;

/** Another writer (an API call, another process) changed a check between read and write. */
class LostRace extends Error {}

interface BatchResult {
  missing: Set<Pending>;
  pings: Array<{ check: Check; ping: Ping }>;
  flips: PendingFlip[];
}

export class PingIngest {
  #queue: Pending[] = [];
  #writer: Promise<void> | null = null;
  constructor(private deps: MonitoringDeps) {}

  /** Resolves once the ping is committed; rejects with NOT_FOUND for an unknown check. */
  submit(target: PingTarget, req: PingRequest): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ target, req, at: this.deps.clock.now(), resolve, reject });
      this.#writer ??= this.#writeAll();
    });
  }

  /** Resolves when every ping submitted so far is committed (or failed). */
  async drain(): Promise<void> {
    while (this.#writer) await this.#writer;
  }

  async #writeAll(): Promise<void> {
    // Requests that arrive in the same turn of the event loop share the first transaction.
    await new Promise((r) => setImmediate(r));
    while (this.#queue.length) await this.#writeBatch(this.#queue.splice(0, MAX_BATCH));
    this.#writer = null;
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.deps.db.$transaction((tx) => writePings(tx, batch, this.deps.pingBodyLimit));
        this.#settle(batch, result);
        return;
      } catch (err) {
        if ((err instanceof LostRace || isBusyError(err)) && attempt < MAX_ATTEMPTS) continue;
        const failure = err instanceof LostRace ? conflict('too many concurrent changes to this check, try again') : err;
        for (const p of batch) p.reject(failure);
        return;
      }
    }
  }

  #settle(batch: Pending[], result: BatchResult) {
    for (const p of batch) {
      if (result.missing.has(p)) p.reject(notFound('not found'));
      else p.resolve();
    }
    for (const { check, ping } of result.pings) {
      this.deps.events.emit('ping', { projectId: check.projectId, checkId: check.id, ping });
      publishCheckChanged(this.deps, 'ping', check);
    }
    publishFlips(this.deps, result.flips);
  }
}

function requestedKind(req: PingRequest, check: Check): PingKind {
  if (check.methods === 'POST' && req.method !== 'POST') return 'ign';
  let kind: PingKind = req.signal;
  if (req.exitStatus !== undefined && req.exitStatus > 0) kind = 'fail';
  if (check.filterHttpBody) kind = classifyBody(req.body.toString('utf8'), check);
  return kind;
}

async function writePings(tx: Prisma.TransactionClient, batch: Pending[], bodyLimit: number | null): Promise<BatchResult> {
  const codes = new Set<string>();
  const ids = new Set<number>();
  for (const p of batch) 'code' in p.target ? codes.add(p.target.code) : ids.add(p.target.checkId);
  const stored: StoredCheck[] = await tx.check.findMany({
    where: { OR: [{ code: { in: [...codes] } }, { id: { in: [...ids] } }] },
    include: { project: { select: { pingLogLimit: true } } },
  });
  const byCode = new Map(stored.map((c) => [c.code, c]));
  const byId = new Map(stored.map((c) => [c.id, c]));

  // Apply the pings in arrival order to an in-memory copy of each check.
  const current = new Map<number, Check>();
  const result: BatchResult = { missing: new Set(), pings: [], flips: [] };
  const rows: NewPing[] = [];
  const flipRows: Prisma.FlipCreateManyInput[] = [];
  for (const p of batch) {
    const found = 'code' in p.target ? byCode.get(p.target.code) : byId.get(p.target.checkId);
    if (!found) {
      result.missing.add(p);
      continue;
    }
    const check = current.get(found.id) ?? stripProject(found);
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
    rows.push(row);
    result.pings.push({ check: after, ping: { id: 0, ...row } });
    if (outcome.flip) {
      flipRows.push({ checkId: found.id, createdAt: p.at, ...outcome.flip });
      result.flips.push({ check: after, ...outcome.flip, at: p.at, processed: null });
    }
  }
  if (rows.length === 0) return result;

  await updateChecks(tx, [...current.values()].map((c) => ({ before: byId.get(c.id)!, after: c })));
  const created = await tx.ping.createManyAndReturn({ data: rows, select: { id: true, checkId: true, n: true } });
  const idOf = new Map(created.map((r) => [`${r.checkId}:${r.n}`, r.id]));
  for (const p of result.pings) p.ping.id = idOf.get(`${p.ping.checkId}:${p.ping.n}`)!;
  if (flipRows.length) await tx.flip.createMany({ data: flipRows });
  await prunePingLogs(tx, current, byId);
  return result;
}

function stripProject(check: StoredCheck): Check {
  const { project: _project, ...row } = check;
  return row;
}

/**
 * One UPDATE for every check in the batch, each guarded by the ping count it was read with
 * (compare-and-set): if any row changed meanwhile the whole batch is retried on fresh rows.
 */
async function updateChecks(tx: Prisma.TransactionClient, changes: Array<{ before: Check; after: Check }>) {
  const values = changes.map(
    ({ before, after: c }) =>
      Prisma.sql`(${c.id}, ${before.nPings}, ${c.status}, ${c.lastPing}, ${c.lastStart}, ${c.lastStartRid}, ${c.lastDurationMs}, ${c.alertAfter}, ${c.nPings})`,
  );
  const updated = await tx.$executeRaw`
    UPDATE "Check" SET
      "status" = v.column3, "lastPing" = v.column4, "lastStart" = v.column5, "lastStartRid" = v.column6,
      "lastDurationMs" = v.column7, "alertAfter" = v.column8, "nPings" = v.column9
    FROM (VALUES ${Prisma.join(values)}) AS v
    WHERE "Check"."id" = v.column1 AND "Check"."nPings" = v.column2`;
  if (updated !== changes.length) throw new LostRace();
}

/** Healthchecks prunes at every 100th ping: keep the pings the API can still list. */
async function prunePingLogs(tx: Prisma.TransactionClient, current: Map<number, Check>, before: Map<number, StoredCheck>) {
  const prune: Prisma.PingWhereInput[] = [];
  for (const [id, check] of current) {
    const old = before.get(id)!;
    if (Math.floor(check.nPings / 100) > Math.floor(old.nPings / 100)) {
      prune.push({ checkId: id, n: { lte: check.nPings - old.project.pingLogLimit } });
    }
  }
  if (prune.length) await tx.ping.deleteMany({ where: { OR: prune } });
}
