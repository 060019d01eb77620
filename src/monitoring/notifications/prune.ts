// Old outcomes are deleted, as Healthchecks' prunenotifications does: sent and failed
// notifications older than the retention, a thousand rows per statement (ids grow with time,
// so each statement reads from the oldest end and stops at its limit). Pending ones stay.
import type { Db } from '../../db/client.ts';

const BATCH = 1000;

export async function pruneNotifications(db: Db, before: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const old = await db.notification.findMany({
      where: { createdAt: { lt: before }, state: { not: 'pending' } },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true },
    });
    if (old.length === 0) return deleted;
    deleted += (await db.notification.deleteMany({ where: { id: { in: old.map((n) => n.id) } } })).count;
    if (old.length < BATCH) return deleted;
  }
}
