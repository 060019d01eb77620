// The ping store on SQLite, through better-sqlite3's own connection (the one Prisma's adapter
// opened) with cached prepared statements. Prisma serves every other path; here its per-row
// cost (about 0.45 ms per row written by createMany, measured) would cap ingest near 1,500
// pings/s, while these statements cost microseconds. The database gate keeps Prisma's
// statements out of these transactions (see db/gated-adapter.ts).
import type Database from 'better-sqlite3';
import type { Check } from '../../generated/prisma/client.ts';
import type { StatementListener } from '../../db/gated-adapter.ts';
import { checkFromRow, immediateTransaction, millis, rowReader, type Exclusive } from '../../db/sqlite-transaction.ts';
import type { NewFlip, NewPing, PingStore, PingTx } from './store.ts';
import { sqliteOutbox } from '../notifications/sqlite-outbox.ts';



const SQL = {
  byCode: 'SELECT * FROM "Check" WHERE "code" = ?',
  byId: 'SELECT * FROM "Check" WHERE "id" = ?',
  pingLogLimit: 'SELECT "pingLogLimit" FROM "Project" WHERE "id" = ?',
  update: `UPDATE "Check" SET "status" = ?, "lastPing" = ?, "lastStart" = ?, "lastStartRid" = ?, "lastDurationMs" = ?,
    "alertAfter" = ?, "nPings" = ? WHERE "id" = ? AND "nPings" = ?`,
  insertPing: `INSERT INTO "Ping" ("checkId", "n", "createdAt", "kind", "scheme", "remoteAddr", "method", "ua", "rid", "exitStatus", "body")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertFlip: 'INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason") VALUES (?, ?, ?, ?, ?)',
  prune: 'DELETE FROM "Ping" WHERE "checkId" = ? AND "n" <= ?',
};

const ms = millis;
const toCheck = (row: Record<string, unknown> | undefined) => checkFromRow<Check>(row);

export function sqlitePingStore(exclusive: Exclusive): PingStore {
  // Statements are prepared once per connection (the adapter reconnects after $disconnect()).
  let prepared: { db: Database.Database; tx: PingTx } | undefined;

  function prepare(db: Database.Database, observe: StatementListener): PingTx {
    const s = Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.prepare(sql).safeIntegers(false)])) as Record<keyof typeof SQL, Database.Statement>;
    const step = <T>(sql: string, f: () => T) => {
      observe(sql);
      return f();
    };
    const byCode = rowReader(s.byCode);
    const byId = rowReader(s.byId);
    return {
      checkByCode: (code) => step(SQL.byCode, () => toCheck(byCode(code))),
      checkById: (id) => step(SQL.byId, () => toCheck(byId(id))),
      pingLogLimit: (projectId) => step(SQL.pingLogLimit, () => (s.pingLogLimit.get(projectId) as { pingLogLimit: number }).pingLogLimit),
      updateCheck: (before: Check, c: Check) =>
        step(SQL.update, () => s.update.run(c.status, ms(c.lastPing), ms(c.lastStart), c.lastStartRid, c.lastDurationMs, ms(c.alertAfter), c.nPings, c.id, before.nPings).changes === 1),
      insertPing: (p: NewPing) =>
        step(SQL.insertPing, () =>
          Number(s.insertPing.run(p.checkId, p.n, p.createdAt.getTime(), p.kind, p.scheme, p.remoteAddr, p.method, p.ua, p.rid, p.exitStatus, p.body).lastInsertRowid),
        ),
      insertFlip: (f: NewFlip) => step(SQL.insertFlip, () => Number(s.insertFlip.run(f.checkId, f.createdAt.getTime(), f.oldStatus, f.newStatus, f.reason).lastInsertRowid)),
      ...sqliteOutbox(db, observe),
      prunePings: (checkId, n) => step(SQL.prune, () => void s.prune.run(checkId, n)),
    };
  }

  return {
    transaction: (work) =>
      immediateTransaction(exclusive, (db, observe) => {
        if (prepared?.db !== db) prepared = { db, tx: prepare(db, observe) };
        return work(prepared.tx);
      }),
  };
}
