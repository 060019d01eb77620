// Turns claimed notifications into Deliveries: the rows they refer to are read once per batch,
// what only some messages need (last ping, other down checks) on demand.
import type { Channel, Flip } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import type { ClaimedNotification } from './store.ts';
import type { NotifySettings } from './settings.ts';
import type { AlertCheck, Delivery } from '../integrations/kinds/shared/transport.ts';
import type { CheckRecord } from '../checks/service.ts';
import { checkDefaults } from '../checks/apply-spec.ts';
import { uniqueKeyFor } from '../checks/derived.ts';
import { authorizePhoneMessage } from './phone-quota.ts';
import { consentLink } from '../integrations/consent.ts';
import { secretKey } from '../secret-key.ts';

const checkForAlert = { project: { select: { name: true } }, channels: { select: { channel: { select: { code: true } } } } } as const;

export interface DeliverySource {
  db: Db;
  settings: NotifySettings;
  /** The check as the Management API describes it (injected: REST shapes live in rest-compat). */
  describeCheck(check: CheckRecord, now: Date): Record<string, unknown>;
  now(): Date;
  /** SECRET_KEY (null: the installation's own, monitoring/secret-key.ts): signs unsubscribe links. */
  secretKey: string | null;
}

/** Healthchecks' test notification: a made-up check named TEST that has just gone down. */
function testCheck(n: ClaimedNotification, channel: Channel, projectName: string): AlertCheck & { channels: [] } {
  return {
    id: 0,
    code: n.code,
    // Incident tools take it as the dedup key (as Healthchecks' unsaved test check has one).
    uniqueKey: uniqueKeyFor(n.code),
    badgeKey: '',
    projectId: channel.projectId,
    project: { name: projectName },
    ...checkDefaults,
    name: 'TEST',
    slug: 'test',
    status: 'down',
    nPings: 0,
    lastPing: null,
    lastStart: null,
    lastStartRid: null,
    lastDurationMs: null,
    alertAfter: null,
    createdAt: n.createdAt,
    channels: [],
  };
}

/** Deliveries for a claimed batch; a notification whose channel or check is gone maps to null. */
export async function loadDeliveries(src: DeliverySource, batch: ClaimedNotification[]): Promise<Array<Delivery | null>> {
  const ids = (pick: (n: ClaimedNotification) => number | null) => [...new Set(batch.map(pick).filter((id): id is number => id !== null))];
  const [channels, checks, flips] = await Promise.all([
    src.db.channel.findMany({ where: { id: { in: ids((n) => n.channelId) } }, include: { project: { select: { name: true } } } }),
    src.db.check.findMany({ where: { id: { in: ids((n) => n.checkId) } }, include: checkForAlert }),
    src.db.flip.findMany({ where: { id: { in: ids((n) => n.flipId) } } }),
  ]);
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const checkById = new Map(checks.map((c) => [c.id, c]));
  const flipById = new Map<number, Flip>(flips.map((f) => [f.id, f]));

  return batch.map((n) => {
    const channel = n.channelId === null ? undefined : channelById.get(n.channelId);
    // Account mail (no channel) is the notifier's to load (prepared-mail.ts), never a Delivery.
    if (!channel || (n.reason !== 'flip' && n.reason !== 'nag' && n.reason !== 'test')) return null;
    const reason = n.reason;
    const check = n.checkId === null ? testCheck(n, channel, channel.project.name) : checkById.get(n.checkId);
    if (!check) return null;
    const flip = n.flipId === null ? undefined : flipById.get(n.flipId);
    let lastPing: ReturnType<Delivery['lastPing']> | undefined;
    let otherDown: ReturnType<Delivery['otherDownChecks']> | undefined;
    let downSince: ReturnType<Delivery['downSince']> | undefined;
    const delivery: Delivery = {
      id: n.code,
      reason,
      status: n.status,
      at: n.eventAt,
      flip: flip ? { oldStatus: flip.oldStatus, newStatus: flip.newStatus, reason: flip.reason } : null,
      channel,
      check,
      settings: src.settings,
      lastPing: () =>
        (lastPing ??=
          n.checkId === null
            ? Promise.resolve(null)
            : src.db.ping.findFirst({ where: { checkId: n.checkId, createdAt: { lte: n.eventAt } }, orderBy: { n: 'desc' } })),
      otherDownChecks: () =>
        (otherDown ??= (async () => {
          const where = { projectId: check.projectId, id: { not: check.id } };
          if ((await src.db.check.count({ where })) === 0) return null;
          const down = await src.db.check.findMany({ where: { ...where, status: 'down' } });
          return down.sort((a, b) => (a.name || a.code).localeCompare(b.name || b.code));
        })()),
      // Healthchecks' Flip.down_duration: from the flip before this up one, if it was to down.
      downSince: () =>
        (downSince ??=
          n.checkId === null || n.status !== 'up'
            ? Promise.resolve(null)
            : src.db.flip
                .findFirst({ where: { checkId: n.checkId, createdAt: { lt: n.eventAt } }, orderBy: { createdAt: 'desc' }, select: { newStatus: true, createdAt: true } })
                .then((f) => (f?.newStatus === 'down' ? f.createdAt : null))),
      checkJson: () => src.describeCheck(check, src.now()),
      unsubscribeUrl: async () => consentLink(src.settings.siteRoot, await secretKey(src.db, src.secretKey), 'unsubscribe', channel),
      // Counted on the first attempt only: a retry of the same message is not a second message.
      authorizePhoneMessage: (quota, notice) =>
        n.attempt > 1
          ? Promise.resolve(true)
          : authorizePhoneMessage(src.db, {
              projectId: channel.projectId,
              quota,
              limit: src.settings.phoneLimits[quota],
              now: src.now(),
              notice: { ...notice, recipient: channel.value, siteName: src.settings.siteName },
            }),
    };
    return delivery;
  });
}
