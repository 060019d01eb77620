// The signed-in account's email reports and nags over GraphQL (Healthchecks' "Email Reports"
// page): `viewer { reportSettings { … } }` reads them, `setReportSettings` changes them. Each
// field parses, finds the person behind the session, calls the reports room and shapes the answer.
import { builder } from '../builder.ts';
import { requireSignedIn } from './signed-in.ts';
import { Viewer } from './session.ts';
import { reportSettingsOf, setReportSettings, type ReportPeriod, type ReportSettings } from '../../../monitoring/reports/profile.ts';

const ReportPeriodEnum = builder.enumType('ReportPeriod', {
  description: 'How often the report comes: OFF, DAILY, WEEKLY (Mondays) or MONTHLY (on the 1st), between 9 and 11 in the morning of the account’s time zone',
  values: { OFF: { value: 'off' }, DAILY: { value: 'daily' }, WEEKLY: { value: 'weekly' }, MONTHLY: { value: 'monthly' } } as const,
});

const NagPeriodEnum = builder.enumType('NagPeriod', {
  description: 'While any check of the account’s projects is down, a reminder listing the down checks comes this often: OFF, HOURLY or DAILY',
  values: { OFF: { value: 0 }, HOURLY: { value: 3600 }, DAILY: { value: 86400 } } as const,
});

const ReportSettingsRef = builder.objectRef<ReportSettings>('ReportSettings').implement({
  description: 'The account’s email reports and nags (Healthchecks’ profile settings); every mail has a one-click unsubscribe link',
  fields: (t) => ({
    reports: t.field({ type: ReportPeriodEnum, resolve: (s) => s.reports }),
    nagPeriod: t.field({ type: NagPeriodEnum, resolve: (s) => s.nagPeriod as 0 | 3600 | 86400 }),
    timeZone: t.exposeString('tz', { description: 'The IANA zone report periods and downtime months are bounded in' }),
    nextReportAt: t.expose('nextReportAt', { type: 'DateTime', nullable: true, description: 'When the next report is due; null when reports are off (or not scheduled yet)' }),
    nextNagAt: t.expose('nextNagAt', { type: 'DateTime', nullable: true, description: 'When the next nag is due; null while nothing is down or nags are off' }),
  }),
});

builder.objectField(Viewer, 'reportSettings', (t) =>
  t.field({
    type: ReportSettingsRef,
    description: 'Their email reports and nags',
    resolve: (v, _a, ctx) => reportSettingsOf(ctx.identity.db, v.personId),
  }),
);

builder.mutationField('setReportSettings', (t) =>
  t.field({
    type: ReportSettingsRef,
    description:
      'Changes the signed-in account’s email reports and nags; arguments left out stay as they are. The next report is scheduled again for the new period and zone.',
    args: {
      reports: t.arg({ type: ReportPeriodEnum }),
      nagPeriod: t.arg({ type: NagPeriodEnum }),
      timeZone: t.arg.string({ description: 'An IANA time zone, e.g. Europe/Riga' }),
    },
    resolve: async (_r, args, ctx) => {
      const me = await requireSignedIn(ctx);
      return setReportSettings({ db: ctx.identity.db, clock: ctx.identity.clock }, me.personId, {
        reports: args.reports as ReportPeriod | null | undefined,
        nagPeriod: args.nagPeriod,
        tz: args.timeZone,
      });
    },
  }),
);
