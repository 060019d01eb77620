// The monitor's page on SQLite, on the driver's connection (Prisma's per-row cost would make
// 10,000 checks going down at once take seconds). Pages walk the alertAfter index.
import type Database from 'better-sqlite3';
import type { Check } from '../../generated/prisma/client.ts';
import { immediateTransaction, millis, type Exclusive } from '../../db/sqlite/transaction.ts';
import { checkFromRow } from '../sqlite-check-row.ts';
import { queueFlipNotifications, type FlipToNotify } from '../notifications/outbox.ts';
import { sqliteOutbox } from '../notifications/sqlite-outbox.ts';
import type { MonitorCursor, MonitorPage, MonitorStore, RecordPageEvents } from './store.ts';
import { dueAction } from './due.ts';

// The row-value cursor keeps SQLite on the (alertAfter) index (a plain "id > ?" makes it scan
// the table by id instead).
export const DUE_SQL = `SELECT * FROM "Check" WHERE "alertAfter" <= ? AND "status" != 'down' AND ("alertAfter", "id") > (?, ?)
  ORDER BY "alertAfter", "id" LIMIT ?`;
const DOWN_SQL = `UPDATE "Check" SET "status" = 'down', "alertAfter" = NULL WHERE "id" = ? AND "status" = ? AND "nPings" = ?`;
const RESCHEDULE_SQL = `UPDATE "Check" SET "alertAfter" = ? WHERE "id" = ? AND "nPings" = ?`;
const FLIP_SQL = `INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason") VALUES (?, ?, ?, 'down', 'timeout')`;

function passPage(db: Database.Database, observe: (sql: string) => void, now: Date, after: MonitorCursor, pageSize: number, recordEvents: RecordPageEvents): MonitorPage {
  const statement = (sql: string) => {
    observe(sql);
    return db.prepare(sql).safeIntegers(false);
  };
  const rows = statement(DUE_SQL).all(now.getTime(), after.alertAfter, after.id, pageSize) as Record<string, unknown>[];
  const page: MonitorPage = { read: rows.length, last: after, down: [], flips: [], rescheduled: 0 };
  // Most passes find nothing due: prepare the writes only when there is something to write.
  if (rows.length === 0) return page;
  const down = db.prepare(DOWN_SQL).safeIntegers(false);
  const reschedule = db.prepare(RESCHEDULE_SQL).safeIntegers(false);
  const flip = db.prepare(FLIP_SQL).safeIntegers(false);
  const toNotify: FlipToNotify[] = [];
  for (const row of rows) {
    page.last = { alertAfter: row.alertAfter as number, id: row.id as number };
    const check = checkFromRow<Check>(row)!;
    const action = dueAction(check, now);
    if (!action.down) {
      observe(RESCHEDULE_SQL);
      reschedule.run(millis(action.alertAfter), check.id, check.nPings);
      page.rescheduled++;
      continue;
    }
    // Read and write share this transaction; the guard only matters if another writer
    // ever gets in between (it cannot while the gate is held).
    observe(DOWN_SQL);
    if (down.run(check.id, check.status, check.nPings).changes !== 1) continue;
    observe(FLIP_SQL);
    const flipId = Number(flip.run(check.id, action.at.getTime(), check.status).lastInsertRowid);
    toNotify.push({ checkId: check.id, flipId, oldStatus: check.status, newStatus: 'down', at: action.at, sendAt: now });
    page.down.push({ ...check, status: 'down', alertAfter: null });
    page.flips.push({ check, oldStatus: check.status, newStatus: 'down', at: action.at, reason: 'timeout', processed: null });
  }
  // The outbox: the flips' notifications commit with them, and so do their events.
  const outbox = sqliteOutbox(db, observe);
  queueFlipNotifications(outbox, toNotify);
  if (recordEvents(page, outbox) instanceof Promise) throw new Error('a SQLite monitor page must record its events synchronously');
  return page;
}

export function sqliteMonitorStore(exclusive: Exclusive): MonitorStore {
  return {
    passPage: (now, after, pageSize, recordEvents) => immediateTransaction(exclusive, (db, observe) => passPage(db, observe, now, after, pageSize, recordEvents)),
    // One writer: a second page would only wait for the first.
    parallelPages: 1,
  };
}
