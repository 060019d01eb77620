// One monitor pass: move every check whose going-down time has passed to "down" and record
// the flip dated at that moment (not at detection), as Healthchecks' sendalerts does.
// Cost is O(checks due): it reads only rows through the indexed alertAfter column, a page at a
// time, each page read and written in one transaction on the driver's connection (Prisma's
// per-row cost would make 10,000 checks going down at once take seconds).
import type Database from 'better-sqlite3';
import type { Check } from '../../generated/prisma/client.ts';
import { checkFromRow, immediateTransaction, millis } from '../../db/sqlite-transaction.ts';
import type { MonitoringDeps } from '../context.ts';
import { computeStatus, goingDownAfter } from '../checks/status.ts';
import { publishCheckChanged, publishFlips, type PendingFlip } from '../flips/record.ts';
import { queueFlipNotifications } from '../notifications/outbox.ts';
import { sqliteOutbox } from '../notifications/sqlite-outbox.ts';

const PAGE = 1000;

// Pages walk the alertAfter index in (alertAfter, id) order; the row-value cursor keeps SQLite
// on that index (a plain "id > ?" makes it scan the table by id instead).
export const DUE_SQL = `SELECT * FROM "Check" WHERE "alertAfter" <= ? AND "status" != 'down' AND ("alertAfter", "id") > (?, ?)
  ORDER BY "alertAfter", "id" LIMIT ?`;
const DOWN_SQL = `UPDATE "Check" SET "status" = 'down', "alertAfter" = NULL WHERE "id" = ? AND "status" = ? AND "nPings" = ?`;
const RESCHEDULE_SQL = `UPDATE "Check" SET "alertAfter" = ? WHERE "id" = ? AND "nPings" = ?`;
const FLIP_SQL = `INSERT INTO "Flip" ("checkId", "createdAt", "oldStatus", "newStatus", "reason") VALUES (?, ?, ?, 'down', 'timeout')`;

export interface PassResult {
  /** Checks moved to down in this pass. */
  wentDown: number;
  /** Checks looked at but not (yet) down, whose alertAfter was moved forward. */
  rescheduled: number;
}

interface Cursor {
  alertAfter: number;
  id: number;
}

interface PageResult {
  read: number;
  last: Cursor;
  down: Check[];
  flips: PendingFlip[];
  rescheduled: number;
}

function passPage(db: Database.Database, observe: (sql: string) => void, now: Date, after: Cursor): PageResult {
  const statement = (sql: string) => {
    observe(sql);
    return db.prepare(sql).safeIntegers(false);
  };
  const rows = statement(DUE_SQL).all(now.getTime(), after.alertAfter, after.id, PAGE) as Record<string, unknown>[];
  const page: PageResult = { read: rows.length, last: after, down: [], flips: [], rescheduled: 0 };
  // Most passes find nothing due: prepare the writes only when there is something to write.
  if (rows.length === 0) return page;
  const down = db.prepare(DOWN_SQL).safeIntegers(false);
  const reschedule = db.prepare(RESCHEDULE_SQL).safeIntegers(false);
  const flip = db.prepare(FLIP_SQL).safeIntegers(false);
  const outbox = sqliteOutbox(db, observe);
  for (const row of rows) {
    page.last = { alertAfter: row.alertAfter as number, id: row.id as number };
    const check = checkFromRow<Check>(row)!;
    if (computeStatus(check, now) !== 'down') {
      // Not down yet (the stored alertAfter was stale): look again at the right time.
      observe(RESCHEDULE_SQL);
      reschedule.run(millis(goingDownAfter(check)), check.id, check.nPings);
      page.rescheduled++;
      continue;
    }
    const flipTime = goingDownAfter(check) ?? now;
    // Read and write share this transaction; the guard only matters if another writer
    // ever gets in between (it cannot while the gate is held).
    observe(DOWN_SQL);
    if (down.run(check.id, check.status, check.nPings).changes !== 1) continue;
    observe(FLIP_SQL);
    const flipId = Number(flip.run(check.id, flipTime.getTime(), check.status).lastInsertRowid);
    // The outbox: the flip's notifications commit with it.
    queueFlipNotifications(outbox, { checkId: check.id, flipId, oldStatus: check.status, newStatus: 'down', at: flipTime }, now);
    page.down.push({ ...check, status: 'down', alertAfter: null });
    page.flips.push({ check, oldStatus: check.status, newStatus: 'down', at: flipTime, reason: 'timeout', processed: null });
  }
  return page;
}

export async function runMonitorPass(deps: MonitoringDeps, now: Date): Promise<PassResult> {
  const result: PassResult = { wentDown: 0, rescheduled: 0 };
  let after: Cursor = { alertAfter: -Infinity, id: 0 };
  for (;;) {
    const page = await immediateTransaction(deps.exclusive, (db, observe) => passPage(db, observe, now, after));
    // Events after the commit, exactly once.
    for (const check of page.down) publishCheckChanged(deps, 'status', check);
    publishFlips(deps, page.flips);
    result.wentDown += page.down.length;
    result.rescheduled += page.rescheduled;
    if (page.read < PAGE) return result;
    after = page.last;
  }
}

/** The earliest pending going-down time, so the loop can wake exactly then. */
export async function nextDueAt(deps: MonitoringDeps): Promise<Date | null> {
  const next = await deps.db.check.findFirst({
    where: { alertAfter: { not: null }, status: { not: 'down' } },
    orderBy: { alertAfter: 'asc' },
    select: { alertAfter: true },
  });
  return next?.alertAfter ?? null;
}
