// The report scheduler: Healthchecks' `sendreports --loop`, in the server process beside the
// monitor. It runs a pass (pass.ts), then sleeps until the earliest report or nag date or the
// interval, whichever is sooner; a flip wakes it at once, so a nag clock starts when a check
// goes down, not up to an interval later. Time comes from the injected clock; passes never
// overlap; stop() waits for the running one. Without outgoing mail (EMAIL_HOST) it does nothing.
import type { Logger } from 'pino';
import type { Clock } from '../../shared/clock.ts';
import { internalListener, type MonitoringEvents } from '../../events/bus.ts';
import { nextReportWorkAt, runReportPass, type ReportDeps, type ReportPassResult } from './pass.ts';

export interface ReportSchedulerOptions extends ReportDeps {
  clock: Clock;
  events: MonitoringEvents;
  /** Outgoing mail is configured: without it nothing can be sent, so nothing is scheduled. */
  mailEnabled: boolean;
  /** Longest sleep between passes (Healthchecks' loop: a minute). */
  intervalMs?: number;
  log?: Logger;
}

export interface ReportScheduler {
  start(): void;
  stop(): Promise<void>;
  /** Runs a pass now (tests drive the scheduler this way); resolves with what it queued. */
  tick(): Promise<ReportPassResult>;
}

const NOTHING: ReportPassResult = { scheduled: 0, reports: 0, nags: 0 };

export function createReportScheduler(o: ReportSchedulerOptions): ReportScheduler {
  const intervalMs = o.intervalMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<ReportPassResult> | undefined;
  let again = false;
  let stopped = true;

  async function pass(): Promise<ReportPassResult> {
    if (!o.mailEnabled) return NOTHING;
    try {
      const result = await runReportPass(o, o.clock.now());
      if (result.reports || result.nags) o.log?.info(result, 'reports and nags queued');
      return result;
    } catch (err) {
      o.log?.error({ err }, 'report pass failed');
      return NOTHING;
    }
  }

  function tick(): Promise<ReportPassResult> {
    if (running) {
      // A flip during a pass: one more pass after it.
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  async function schedule() {
    if (stopped) return;
    if (again) {
      again = false;
      return void tick().then(schedule);
    }
    const now = o.clock.now().getTime();
    let at = now + intervalMs;
    try {
      const due = o.mailEnabled ? await nextReportWorkAt(o.db) : null;
      // Due strictly after its date (Healthchecks: next_report_date < now).
      if (due) at = Math.min(at, due.getTime() + 1);
    } catch (err) {
      o.log?.error({ err }, 'report scheduler could not read the next date');
    }
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick().then(schedule), Math.max(10, at - now));
  }

  const onFlip = internalListener(() => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    void tick().then(schedule);
  });

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      if (!o.mailEnabled) o.log?.info('email reports and nags are off: EMAIL_HOST is not set');
      o.events.on('flip', onFlip);
      void tick().then(schedule);
    },
    async stop() {
      stopped = true;
      o.events.off('flip', onFlip);
      if (timer) clearTimeout(timer);
      await running;
    },
    tick,
  };
}
