// Check.downtimes: downtime per month, as Healthchecks' details page and monthly report show it,
// with the months bounded in a time zone (Check.downtimes(months, tz)): the `tz` argument, else
// the signed-in account's zone (its report settings), else UTC. A summary, like flips:
// read-only keys may read it. The flips it needs load with the check (one statement for a page
// of checks); the arithmetic is the domain's (flips/downtimes.ts).
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { Check } from './check.ts';
import {
  checkTimeZone,
  DOWNTIME_MONTHS_MAX,
  DOWNTIME_MONTHS_MIN,
  flipsSince,
  flipsSinceAnyZone,
  monthlyDowntimes,
  type MonthDowntime,
} from '../../../monitoring/flips/downtimes.ts';
import { canonicalTimezone } from '../../../monitoring/checks/timezones.ts';
import { accountTimeZone } from '../../../monitoring/reports/profile.ts';

const MonthDowntimeRef = builder.objectRef<MonthDowntime>('MonthDowntime').implement({
  description: 'How long a check was down in one calendar month of a time zone',
  fields: (t) => ({
    month: t.expose('month', { type: 'DateTime', description: 'The first instant of the month in the time zone' }),
    downtime: t.exposeInt('downtime', { description: 'Seconds down in the month' }),
    outages: t.exposeInt('outages', { description: 'Down periods in the month; one that runs across the start of a month counts in each month (as Healthchecks counts)' }),
    noData: t.exposeBoolean('noData', { description: 'The check did not exist yet in this month (it was created after the month ended)' }),
  }),
});

/** The months the plan reads flips for: the argument's, kept in range (the resolver refuses the rest). */
const plannedMonths = (months: number | null | undefined) => Math.min(Math.max(months ?? 3, DOWNTIME_MONTHS_MIN), DOWNTIME_MONTHS_MAX);

/** The zone of the account signed in through the session, read once per request; UTC for API keys. */
const viewerZones = new WeakMap<object, Promise<string>>();
function viewerTimeZone(ctx: GraphQLContext): Promise<string> {
  let zone = viewerZones.get(ctx);
  if (!zone) {
    zone = ctx.signedIn().then((me) => (me ? accountTimeZone(ctx.identity.db, me.personId) : 'UTC'));
    viewerZones.set(ctx, zone);
  }
  return zone;
}

builder.prismaObjectField(Check, 'downtimes', (t) =>
  t.field({
    type: [MonthDowntimeRef],
    description: `The current month and the ones before it, newest first: seconds down and down periods, from the check's flips, the months bounded in a time zone`,
    args: {
      months: t.arg.int({ defaultValue: 3, description: `${DOWNTIME_MONTHS_MIN} to ${DOWNTIME_MONTHS_MAX}, the current month included` }),
      tz: t.arg.string({ description: 'The IANA time zone the months start in; default: the signed-in account’s (its report settings), else UTC' }),
    },
    select: (args, ctx) => {
      // The account's zone is not known while planning: read from a day before the earliest
      // month start any zone can have (the resolver leaves out what its zone does not need).
      const zone = args.tz ? canonicalTimezone(args.tz) : null;
      const since = zone ? flipsSince(ctx.now, plannedMonths(args.months), zone) : flipsSinceAnyZone(ctx.now, plannedMonths(args.months));
      return { createdAt: true, flips: { where: { createdAt: { gt: since } }, select: { createdAt: true, oldStatus: true } } };
    },
    // The stored status, as Healthchecks uses: a check turns "down" when the monitor records
    // the flip, so the last stretch always agrees with the flips.
    resolve: async (c, args, ctx) => {
      const tz = args.tz ? checkTimeZone(args.tz) : await viewerTimeZone(ctx);
      return monthlyDowntimes(c.status, c.flips, ctx.now, args.months ?? 3, tz, c.createdAt);
    },
  }),
);
