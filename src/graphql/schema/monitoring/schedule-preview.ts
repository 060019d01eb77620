// Query.schedulePreview: a cron or OnCalendar schedule checked, described and run forward
// before a check is saved with it. Pure computation: no key or session needed, nothing read from the database.
import { builder } from '../builder.ts';
import { PREVIEW_COUNT_MAX, PREVIEW_COUNT_MIN, previewSchedule, type SchedulePreview } from '../../../monitoring/checks/schedule-preview.ts';

const SchedulePreviewRef = builder.objectRef<SchedulePreview>('SchedulePreview').implement({
  description: 'A cron or OnCalendar schedule as the server reads it',
  fields: (t) => ({
    ok: t.exposeBoolean('ok', { description: 'createCheck and updateCheck would accept this schedule and time zone' }),
    error: t.exposeString('error', { nullable: true, description: 'Why not: the message createCheck gives for the same input; null when ok' }),
    description: t.exposeString('description', { nullable: true, description: 'The schedule in words (as Healthchecks words it); null when not ok, and for OnCalendar schedules (Healthchecks describes none)' }),
    nextTimes: t.expose('nextTimes', { type: ['DateTime'], description: 'When it fires next, soonest first, from now; empty when not ok' }),
  }),
});

builder.queryField('schedulePreview', (t) =>
  t.field({
    type: SchedulePreviewRef,
    description: 'Checks a schedule (five-field cron, or OnCalendar expressions one per line, as CheckInput.schedule) in a time zone, describes it, and lists its next run times',
    args: {
      schedule: t.arg.string({ required: true }),
      tz: t.arg.string({ defaultValue: 'UTC', description: 'A time zone name (as CheckInput.tz); null means UTC' }),
      count: t.arg.int({ defaultValue: 5, description: `How many run times, ${PREVIEW_COUNT_MIN} to ${PREVIEW_COUNT_MAX}` }),
    },
    // An explicit null is the default, as an omitted CheckInput field is.
    resolve: (_root, args, ctx) => previewSchedule(args.schedule, args.tz ?? 'UTC', ctx.now, args.count ?? 5),
  }),
);
