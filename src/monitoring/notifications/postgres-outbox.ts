// The outbox on PostgreSQL: the flips' notifications queued inside their transaction in two
// round trips, whatever the number of flips (channels of the flipped checks; supersedes and
// inserts in one statement), a third when a group is assigned (its members). Which channels
// hear of which flip is decided in outbox.ts.
import type { OutboxPlan, OutboxTx } from './outbox.ts';
import { memberKeys, toTargets, type ChannelRow } from './recipients.ts';
import { ts, type Sql } from '../../db/postgres/sql.ts';
import { insertNotificationsSql, notificationArrays } from './postgres-notification-rows.ts';

const CHANNELS_SQL = `SELECT cc."checkId", c."id", c."projectId", c."kind", c."value", c."disabled", c."notifyDown", c."notifyUp"
  FROM "CheckChannel" cc JOIN "Channel" c ON c."id" = cc."channelId"
  WHERE cc."checkId" = ANY($1::int[]) ORDER BY cc."checkId", c."id"`;

// Groups' members by (project, code): a third round trip, only when a group is assigned.
const MEMBERS_SQL = `SELECT c."id", c."code", c."projectId", c."kind", c."value", c."disabled", c."notifyDown", c."notifyUp"
  FROM "Channel" c JOIN unnest($1::text[], $2::text[]) AS k("projectId", "code") ON c."projectId" = k."projectId" AND c."code" = k."code"
  ORDER BY c."id"`;

// One statement: the supersede cannot touch the rows it inserts (they have no attempt yet, and
// a statement does not see its own inserts anyway).
const QUEUE_SQL = `WITH "superseded" AS (
    UPDATE "Notification" n SET "state" = 'failed', "lastError" = $1
    FROM unnest($2::int[], $3::int[]) AS s("channelId", "checkId")
    WHERE n."channelId" = s."channelId" AND n."checkId" = s."checkId" AND n."state" = 'pending' AND n."attempts" > 0
    RETURNING 1
  )
  ${insertNotificationsSql(4)}`;

// Ids are drawn in the order rows are inserted, which the ordinality sets: sorted, they are the input's order.
const EVENTS_SQL = `INSERT INTO "EventOutbox" ("topic", "payload", "createdAt")
  SELECT v."topic", v."payload", v."createdAt" FROM unnest($1::text[], $2::text[], $3::timestamp[]) WITH ORDINALITY AS v("topic", "payload", "createdAt", "n")
  ORDER BY v."n" RETURNING "id"`;

export function postgresOutbox(sql: Sql): OutboxTx {
  return {
    async insertEvents(rows) {
      if (!rows.length) return [];
      const { rows: ids } = await sql.query<{ id: number }>(EVENTS_SQL, [rows.map((r) => r.topic), rows.map((r) => r.payload), rows.map((r) => ts(r.createdAt))], 'outbox-events');
      return ids.map((r) => r.id).sort((a, b) => a - b);
    },
    async channelsOf(checkIds) {
      const { rows } = await sql.query<ChannelRow & { checkId: number }>(CHANNELS_SQL, [checkIds], 'outbox-channels');
      const rowsOf = new Map<number, ChannelRow[]>(checkIds.map((id) => [id, []]));
      for (const { checkId, ...row } of rows) rowsOf.get(checkId)!.push(row);
      const keys = memberKeys(rows);
      const members = keys.length
        ? (await sql.query<ChannelRow & { code: string }>(MEMBERS_SQL, [keys.map((k) => k.projectId), keys.map((k) => k.code)], 'outbox-group-members')).rows
        : [];
      return new Map([...rowsOf].map(([checkId, list]) => [checkId, toTargets(list, members)]));
    },
    async queueNotifications(plan: OutboxPlan) {
      const r = plan.rows;
      await sql.query(
        QUEUE_SQL,
        [
          plan.error,
          plan.supersede.map((s) => s.channelId),
          plan.supersede.map((s) => s.checkId),
          ...notificationArrays(r, 0),
        ],
        'outbox-queue',
      );
    },
  };
}
