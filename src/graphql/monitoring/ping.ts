// The Ping type. Durations are the domain's (Healthchecks' prepare_durations): computed once per
// listed window of a check, and only when a `duration` field is asked for.
import { builder } from '../builder.ts';
import type { MonitoringDeps } from '../../monitoring/context.ts';
import { pingDurations } from '../../monitoring/pings/service.ts';

/** Healthchecks never lists more than 1000 pings of a check. */
export const PING_LIST_MAX = 1000;

type DurationPing = Parameters<typeof pingDurations>[2][number];

/** Each listed ping's duration, computed lazily for the whole window it was listed in. */
const durationOf = new WeakMap<object, () => Promise<number | null>>();

/** Marks `newestFirst` as one listed window of a check, so `duration` pairs starts within it. */
export function withDurations<P extends DurationPing>(deps: MonitoringDeps, checkId: number, newestFirst: P[]): P[] {
  let all: Promise<(number | null)[]> | undefined;
  newestFirst.forEach((ping, i) => {
    durationOf.set(ping, async () => (await (all ??= pingDurations(deps, checkId, newestFirst)))[i] ?? null);
  });
  return newestFirst;
}

export const Ping = builder.prismaObject('Ping', {
  // Cheap columns a duration needs are always loaded; the body only when asked for.
  select: { id: true, checkId: true, n: true, kind: true, rid: true, createdAt: true },
  fields: (t) => ({
    n: t.exposeInt('n', { description: 'Serial number within the check; larger is newer' }),
    type: t.exposeString('kind', { description: 'success, start, fail, log or ign' }),
    date: t.expose('createdAt', { type: 'DateTime' }),
    scheme: t.exposeString('scheme'),
    remoteAddr: t.exposeString('remoteAddr', { nullable: true }),
    method: t.exposeString('method'),
    ua: t.exposeString('ua'),
    rid: t.exposeString('rid', { nullable: true }),
    exitStatus: t.exposeInt('exitStatus', { nullable: true }),
    duration: t.float({
      nullable: true,
      description: 'Seconds since the matching start ping (success and fail pings), as REST\'s `duration`',
      resolve: async (p, _a, ctx) => {
        // A ping outside a listed window (a live subscription event) stands alone: the domain
        // then looks back for its start.
        const ms = await (durationOf.get(p) ?? (async () => (await pingDurations(ctx.deps, p.checkId, [p]))[0] ?? null))();
        return ms === null ? null : ms / 1000;
      },
    }),
    body: t.string({
      nullable: true,
      description: 'The stored body as UTF-8 text (bytes are verbatim over REST)',
      select: { body: true },
      resolve: (p) => (p.body && p.body.length ? Buffer.from(p.body).toString('utf8') : null),
    }),
  }),
});
