// The ping store on SQLite, through better-sqlite3's own connection (the one Prisma's adapter
// opened) with cached prepared statements. Prisma serves every other path; here its per-row
// cost (about 0.45 ms per row written by createMany, measured) would cap ingest near 1,500
// pings/s, while these statements cost microseconds. The database gate keeps Prisma's
// statements out of these transactions (see db/gated-adapter.ts).
import type Database from 'better-sqlite3';
import type { Check } from '../../generated/prisma/client.ts';
import type { StatementListener } from '../../db/gated-adapter.ts';
import { immediateTransaction, millis, rowReader, type Exclusive } from '../../db/sqlite/transaction.ts';
import { checkFromRow } from '../sqlite-check-row.ts';
import type { LoadedChecks, NewFlip, NewPing, PingStore, PingTargets, PingTx, PingWrites, WrittenIds } from './store.ts';
import { sqliteOutbox, type SqliteOutboxTx } from '../notifications/sqlite-outbox.ts';

const SQL = {
  byCode: 'SELECT * FROM "Check" WHERE "code" = ?',
  byId: 'SELECT * FROM "Check" WHERE "id" = ?',
  pingLogLimit: 'SELECT "pingLogLimit" FROM "Project" WHERE "id" = ?',
  update: `UPDATE "Check" SET "status" = ?, "lastPing" = ?, "lastStart" = ?, "lastStartRid" = ?, "lastDurationMs" = ?,
    "alertAfter" = ?, "nPings" = ? WHERE "id" = ? AND "nPings" = ?`,
  // The same without the going-down time, when the ping keeps it (apply-ping.ts keptDeadline):
  // SQLite rewrites the entries of every index on a column the SET names, changed or not.
  updateKeepDeadline: `UPDATE "Check" SET "status" = ?, "lastPing" = ?, "lastStart" = ?, "lastStartRid" = ?, "lastDurationMs" = ?,
    "nPings" = ? WHERE "id" = ? AND "nPings" = ?`,
  insertPing: `INSERT INTO "Ping" ("checkId", "n", "createdAt", "kind", "scheme", "remoteAddr", "method", "ua", "rid", "exitStatus", "body")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertFlip: 'INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason") VALUES (?, ?, ?, ?, ?)',
  prune: 'DELETE FROM "Ping" WHERE "checkId" = ? AND "n" <= ?',
};

const ms = millis;
const toCheck = (row: Record<string, unknown> | undefined) => checkFromRow<Check>(row);

/** The SQLite transaction: every call answers synchronously (the whole batch is one call). */
export interface SqlitePingTx extends Omit<PingTx, keyof SqliteOutboxTx>, SqliteOutboxTx {
  checkByCode(code: string): Check | undefined;
  checkById(id: number): Check | undefined;
  load(targets: PingTargets): LoadedChecks;
  write(writes: PingWrites): WrittenIds | null;
}

export interface SqlitePingStore extends PingStore {
  transaction<T>(work: (tx: SqlitePingTx) => T | Promise<T>): Promise<T>;
}

export function sqlitePingStore(exclusive: Exclusive): SqlitePingStore {
  // Statements are prepared once per connection (the adapter reconnects after $disconnect()).
  let prepared: { db: Database.Database; tx: SqlitePingTx } | undefined;

  function prepare(db: Database.Database, observe: StatementListener): SqlitePingTx {
    const s = Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.prepare(sql).safeIntegers(false)])) as Record<keyof typeof SQL, Database.Statement>;
    const step = <T>(sql: string, f: () => T) => {
      observe(sql);
      return f();
    };
    const byCode = rowReader(s.byCode);
    const byId = rowReader(s.byId);
    const checkByCode = (code: string) => step(SQL.byCode, () => toCheck(byCode(code)));
    const checkById = (id: number) => step(SQL.byId, () => toCheck(byId(id)));
    return {
      checkByCode,
      checkById,
      load({ codes, ids }) {
        const found = new Map<number, Check>();
        for (const code of codes) {
          const c = checkByCode(code);
          if (c) found.set(c.id, c);
        }
        for (const id of ids) {
          const c = found.has(id) ? undefined : checkById(id);
          if (c) found.set(c.id, c);
        }
        const limits = new Map<string, number>();
        // Read only when a prune needs it (every 100th ping of a check).
        const pingLogLimit = (projectId: string) => {
          let limit = limits.get(projectId);
          if (limit === undefined) {
            limit = step(SQL.pingLogLimit, () => (s.pingLogLimit.get(projectId) as { pingLogLimit: number }).pingLogLimit);
            limits.set(projectId, limit);
          }
          return limit;
        };
        return { checks: [...found.values()], pingLogLimit };
      },
      write(w) {
        for (const { before, after: c } of w.checks) {
          const alertAfter = ms(c.alertAfter);
          const changed =
            alertAfter === ms(before.alertAfter)
              ? step(SQL.updateKeepDeadline, () => s.updateKeepDeadline.run(c.status, ms(c.lastPing), ms(c.lastStart), c.lastStartRid, c.lastDurationMs, c.nPings, c.id, before.nPings).changes)
              : step(SQL.update, () => s.update.run(c.status, ms(c.lastPing), ms(c.lastStart), c.lastStartRid, c.lastDurationMs, alertAfter, c.nPings, c.id, before.nPings).changes);
          if (changed !== 1) return null;
        }
        const pingIds = w.pings.map((p: NewPing) =>
          step(SQL.insertPing, () =>
            Number(s.insertPing.run(p.checkId, p.n, p.createdAt.getTime(), p.kind, p.scheme, p.remoteAddr, p.method, p.ua, p.rid, p.exitStatus, p.body).lastInsertRowid),
          ),
        );
        const flipIds = w.flips.map((f: NewFlip) =>
          step(SQL.insertFlip, () => Number(s.insertFlip.run(f.checkId, f.createdAt.getTime(), f.oldStatus, f.newStatus, f.reason).lastInsertRowid)),
        );
        for (const { checkId, n } of w.prunes) step(SQL.prune, () => void s.prune.run(checkId, n));
        return { pingIds, flipIds };
      },
      ...sqliteOutbox(db, observe),
    };
  }

  return {
    // One writer connection: a second batch would only wait for it.
    parallelBatches: 1,
    transaction: (work) =>
      immediateTransaction(exclusive, (db, observe) => {
        if (prepared?.db !== db) prepared = { db, tx: prepare(db, observe) };
        const result = work(prepared.tx);
        // better-sqlite3 commits when the callback returns: nothing may be left for later.
        if (result instanceof Promise) throw new Error('a SQLite ping transaction must finish synchronously');
        return result;
      }),
  };
}
