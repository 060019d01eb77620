// A channel's last delivery error, as Healthchecks' Channel.last_error: every delivery attempt
// (alerts, reminders, tests) overwrites it, so it is the error of the attempt that ended last,
// '' when that one succeeded or nothing was ever attempted. We keep attempts on the
// notifications (lastAttemptAt, lastError), so it is read from them, for many channels at once.
import type { Db } from '../../db/client.ts';

/** Each channel's last error ('' for none), in two statements whatever the number of channels. */
export async function lastErrorsOf(db: Db, channelIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>(channelIds.map((id) => [id, '']));
  if (!channelIds.length) return out;
  const latest = await db.notification.groupBy({
    by: ['channelId'],
    where: { channelId: { in: [...new Set(channelIds)] }, lastAttemptAt: { not: null } },
    _max: { lastAttemptAt: true },
  });
  if (!latest.length) return out;
  const rows = await db.notification.findMany({
    where: { OR: latest.map((l) => ({ channelId: l.channelId, lastAttemptAt: l._max.lastAttemptAt! })) },
    select: { channelId: true, lastError: true },
    // Two attempts that ended in the same millisecond: the later-queued one counts.
    orderBy: { id: 'asc' },
  });
  for (const row of rows) if (row.channelId !== null) out.set(row.channelId, row.lastError);
  return out;
}
