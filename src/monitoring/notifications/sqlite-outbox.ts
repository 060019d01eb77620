// The outbox on SQLite: the statements that queue notifications inside a flip's transaction
// (ping ingest and monitor passes run on the driver's own connection, see db/sqlite/transaction.ts).
import type Database from 'better-sqlite3';
import type { StatementListener } from '../../db/gated-adapter.ts';
import type { ChannelTarget, OutboxPlan, OutboxTx } from './outbox.ts';
import type { EventRow } from '../../events/outbox.ts';
import { INSERT_NOTIFICATION, notificationParams } from './sqlite-notification-rows.ts';
import { memberKeys, toTargets, type ChannelRow } from './recipients.ts';

type SqliteChannelRow = Omit<ChannelRow, 'disabled' | 'notifyDown' | 'notifyUp'> & { disabled: number; notifyDown: number; notifyUp: number };

/** SQLite keeps booleans as 0 and 1. */
const channelRow = (r: SqliteChannelRow): ChannelRow => ({
  id: r.id,
  projectId: r.projectId,
  kind: r.kind,
  value: r.value,
  disabled: r.disabled === 1,
  notifyDown: r.notifyDown === 1,
  notifyUp: r.notifyUp === 1,
});

const SQL = {
  channelsOf: `SELECT c."id", c."projectId", c."kind", c."value", c."disabled", c."notifyDown", c."notifyUp" FROM "CheckChannel" cc JOIN "Channel" c ON c."id" = cc."channelId"
    WHERE cc."checkId" = ? ORDER BY c."id"`,
  // Groups' members, by (project, code) pairs given as a JSON list: only when a group is assigned.
  members: `SELECT c."id", c."code", c."projectId", c."kind", c."value", c."disabled", c."notifyDown", c."notifyUp" FROM "Channel" c
    JOIN json_each(?) k ON c."projectId" = json_extract(k.value, '$.projectId') AND c."code" = json_extract(k.value, '$.code') ORDER BY c."id"`,
  insert: INSERT_NOTIFICATION,
  supersede: `UPDATE "Notification" SET "state" = 'failed', "lastError" = ?
    WHERE "channelId" = ? AND "checkId" = ? AND "state" = 'pending' AND "attempts" > 0`,
  event: `INSERT INTO "EventOutbox" ("topic", "payload", "createdAt") VALUES (?, ?, ?)`,
};

const prepared = new WeakMap<Database.Database, Record<keyof typeof SQL, Database.Statement>>();

/** Synchronous, as every SQLite hot path (see outbox.ts MaybePromise). */
export interface SqliteOutboxTx extends OutboxTx {
  channelsOf(checkIds: number[]): Map<number, ChannelTarget[]>;
  queueNotifications(plan: OutboxPlan): void;
  insertEvents(rows: EventRow[]): number[];
}

export function sqliteOutbox(db: Database.Database, observe: StatementListener): SqliteOutboxTx {
  let s = prepared.get(db);
  if (!s) {
    s = {
      channelsOf: db.prepare(SQL.channelsOf).safeIntegers(false),
      members: db.prepare(SQL.members).safeIntegers(false),
      insert: db.prepare(SQL.insert).safeIntegers(false),
      supersede: db.prepare(SQL.supersede).safeIntegers(false),
      event: db.prepare(SQL.event).safeIntegers(false),
    };
    prepared.set(db, s);
  }
  const statements = s;
  return {
    channelsOf(checkIds) {
      const rowsOf = new Map<number, ChannelRow[]>();
      for (const checkId of checkIds) {
        observe(SQL.channelsOf);
        rowsOf.set(checkId, (statements.channelsOf.all(checkId) as SqliteChannelRow[]).map(channelRow));
      }
      const keys = memberKeys([...rowsOf.values()].flat());
      let memberRows: Array<ChannelRow & { code: string }> = [];
      if (keys.length) {
        observe(SQL.members);
        memberRows = (statements.members.all(JSON.stringify(keys)) as Array<SqliteChannelRow & { code: string }>).map((r) => ({ ...channelRow(r), code: r.code }));
      }
      return new Map([...rowsOf].map(([checkId, rows]) => [checkId, toTargets(rows, memberRows)]));
    },
    insertEvents(rows) {
      return rows.map((r) => {
        observe(SQL.event);
        return Number(statements.event.run(r.topic, r.payload, r.createdAt.getTime()).lastInsertRowid);
      });
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
