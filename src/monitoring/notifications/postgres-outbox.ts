// The outbox on PostgreSQL: the flips' notifications queued inside their transaction in two
// round trips, whatever the number of flips (channels of the flipped checks; supersedes and
// inserts in one statement). Which channels hear of which flip is decided in outbox.ts.
import type { OutboxPlan, OutboxTx, ChannelTarget } from './outbox.ts';
import type { Sql } from '../../db/postgres/sql.ts';
import { insertNotificationsSql, notificationArrays } from './postgres-notification-rows.ts';

const CHANNELS_SQL = `SELECT cc."checkId", c."id", c."disabled", c."notifyDown", c."notifyUp"
  FROM "CheckChannel" cc JOIN "Channel" c ON c."id" = cc."channelId"
  WHERE cc."checkId" = ANY($1::int[]) ORDER BY cc."checkId", c."id"`;

// One statement: the supersede cannot touch the rows it inserts (they have no attempt yet, and
// a statement does not see its own inserts anyway).
const QUEUE_SQL = `WITH "superseded" AS (
    UPDATE "Notification" n SET "state" = 'failed', "lastError" = $1
    FROM unnest($2::int[], $3::int[]) AS s("channelId", "checkId")
    WHERE n."channelId" = s."channelId" AND n."checkId" = s."checkId" AND n."state" = 'pending' AND n."attempts" > 0
    RETURNING 1
  )
  ${insertNotificationsSql(4)}`;

export function postgresOutbox(sql: Sql): OutboxTx {
  return {
    async channelsOf(checkIds) {
      const { rows } = await sql.query<ChannelTarget & { checkId: number }>(CHANNELS_SQL, [checkIds], 'outbox-channels');
      const out = new Map<number, ChannelTarget[]>(checkIds.map((id) => [id, []]));
      for (const { checkId, id, disabled, notifyDown, notifyUp } of rows) out.get(checkId)!.push({ id, disabled, notifyDown, notifyUp });
      return out;
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
