// The outbox on SQLite: the statements that queue notifications inside a flip's transaction
// (ping ingest and monitor passes run on the driver's own connection, see db/sqlite/transaction.ts).
import type Database from 'better-sqlite3';
import type { StatementListener } from '../../db/gated-adapter.ts';
import type { ChannelTarget, OutboxPlan, OutboxTx } from './outbox.ts';
import { INSERT_NOTIFICATION, notificationParams } from './sqlite-notification-rows.ts';

const SQL = {
  channelsOf: `SELECT c."id", c."disabled", c."notifyDown", c."notifyUp" FROM "CheckChannel" cc JOIN "Channel" c ON c."id" = cc."channelId"
    WHERE cc."checkId" = ? ORDER BY c."id"`,
  insert: INSERT_NOTIFICATION,
  supersede: `UPDATE "Notification" SET "state" = 'failed', "lastError" = ?
    WHERE "channelId" = ? AND "checkId" = ? AND "state" = 'pending' AND "attempts" > 0`,
};

const prepared = new WeakMap<Database.Database, Record<keyof typeof SQL, Database.Statement>>();

/** Synchronous, as every SQLite hot path (see outbox.ts MaybePromise). */
export interface SqliteOutboxTx extends OutboxTx {
  channelsOf(checkIds: number[]): Map<number, ChannelTarget[]>;
  queueNotifications(plan: OutboxPlan): void;
}

export function sqliteOutbox(db: Database.Database, observe: StatementListener): SqliteOutboxTx {
  let s = prepared.get(db);
  if (!s) {
    s = {
      channelsOf: db.prepare(SQL.channelsOf).safeIntegers(false),
      insert: db.prepare(SQL.insert).safeIntegers(false),
      supersede: db.prepare(SQL.supersede).safeIntegers(false),
    };
    prepared.set(db, s);
  }
  const statements = s;
  return {
    channelsOf(checkIds) {
      const out = new Map<number, ChannelTarget[]>();
      for (const checkId of checkIds) {
        observe(SQL.channelsOf);
        const rows = statements.channelsOf.all(checkId) as Array<Record<string, number>>;
        out.set(
          checkId,
          rows.map((r): ChannelTarget => ({ id: r.id!, disabled: r.disabled === 1, notifyDown: r.notifyDown === 1, notifyUp: r.notifyUp === 1 })),
        );
      }
      return out;
    },
    queueNotifications(plan: OutboxPlan) {
      for (const { channelId, checkId } of plan.supersede) {
        observe(SQL.supersede);
        statements.supersede.run(plan.error, channelId, checkId);
      }
      for (const n of plan.rows) {
        observe(SQL.insert);
        statements.insert.run(...notificationParams(n, 0));
      }
    },
  };
}
