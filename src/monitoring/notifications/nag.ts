// Repeat alerts (Healthchecks' "nag"): a project may set a period; while any of its checks is
// down, each channel of a down check is reminded of it every period. The first reminder comes
// one period after the pass first sees something down; when nothing is down the clock resets.
// Each step is a compare-and-set on the project's nagNextAt, so with several instances a
// reminder is queued once.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { memberKeys, recipients, toTargets } from './recipients.ts';

const CHANNEL_FIELDS = { id: true, code: true, projectId: true, kind: true, value: true, disabled: true, notifyDown: true, notifyUp: true } as const;

export async function runNagPass(db: Db, now: Date): Promise<number> {
  const projects = await db.project.findMany({
    // Due reminders, and projects that just got a down check; not every nagging project every second.
    where: { nagPeriod: { not: null }, OR: [{ nagNextAt: null, checks: { some: { status: 'down' } } }, { nagNextAt: { lte: now } }] },
    select: { id: true, nagPeriod: true, nagNextAt: true },
  });
  let queued = 0;
  for (const project of projects) {
    const next = new Date(now.getTime() + project.nagPeriod! * 1000);
    queued += await db.$transaction(async (tx) => {
      const down = await tx.check.findMany({
        where: { projectId: project.id, status: 'down' },
        select: { id: true, channels: { select: { channel: { select: CHANNEL_FIELDS } } } },
        orderBy: { id: 'asc' },
      });
      const expected = { id: project.id, nagNextAt: project.nagNextAt };
      if (down.length === 0) {
        if (project.nagNextAt) await tx.project.updateMany({ where: expected, data: { nagNextAt: null } });
        return 0;
      }
      const claimed = await tx.project.updateMany({ where: expected, data: { nagNextAt: next } });
      // Not due yet (just noticed), or another instance took this reminder.
      if (project.nagNextAt === null || claimed.count !== 1) return 0;
      // A group assigned to a down check reminds its members, each once (recipients.ts).
      const keys = memberKeys(down.flatMap((check) => check.channels.map(({ channel }) => channel)));
      const members = keys.length ? await tx.channel.findMany({ where: { OR: keys }, select: CHANNEL_FIELDS }) : [];
      const rows = down.flatMap((check) =>
        recipients(toTargets(check.channels.map(({ channel }) => channel), members), 'down').map((channel) => ({
          code: randomUUID(),
          channelId: channel.id,
          checkId: check.id,
          reason: 'nag',
          status: 'down',
          eventAt: now,
          nextAttemptAt: now,
          createdAt: now,
        })),
      );
      if (rows.length) await tx.notification.createMany({ data: rows });
      return rows.length;
    });
  }
  return queued;
}
