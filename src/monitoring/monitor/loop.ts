// The background monitor: runs a pass, then sleeps until the next going-down time or the
// interval, whichever is sooner. A check changed meanwhile (a ping, an edit) that is due
// before that wake-up brings it forward, so flips are recorded on time, not up to an interval
// late. Passes never overlap; stop() waits for the running one.
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../context.ts';
import { internalListener, type CheckChangedEvent } from '../../events/bus.ts';
import { nextDueAt, runMonitorPass } from './pass.ts';

export interface Monitor {
  start(): void;
  stop(): Promise<void>;
  /** Runs a pass now (also used by tests); resolves when it finishes. */
  tick(): Promise<void>;
}

export function createMonitor(deps: MonitoringDeps, intervalMs: number, log?: Logger): Monitor {
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function pass() {
    try {
      const started = performance.now();
      const now = deps.clock.now();
      const result = await runMonitorPass(deps, now);
      deps.events.emit('monitorPass', { ...result, durationMs: performance.now() - started });
      if (result.wentDown) log?.info({ wentDown: result.wentDown }, 'checks went down');
    } catch (err) {
      log?.error({ err }, 'monitor pass failed');
    }
  }

  function sleepUntil(at: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(() => {
      wakeAt = Infinity;
      void tick().then(schedule);
    }, Math.max(0, at - deps.clock.now().getTime()));
  }

  async function schedule() {
    if (stopped) return;
    let at = deps.clock.now().getTime() + intervalMs;
    try {
      const due = await nextDueAt(deps);
      if (due) at = Math.min(at, due.getTime());
    } catch (err) {
      log?.error({ err }, 'monitor could not read the next due time');
    }
    sleepUntil(at);
  }

  const onCheckChanged = internalListener(({ check }: CheckChangedEvent) => {
    // While a pass runs, the schedule() after it reads the next due time anyway.
    if (running || !check.alertAfter || check.status === 'down') return;
    if (check.alertAfter.getTime() < wakeAt) sleepUntil(check.alertAfter.getTime());
  });

  function tick(): Promise<void> {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      deps.events.on('checkChanged', onCheckChanged);
      void tick().then(schedule);
    },
    async stop() {
      stopped = true;
      deps.events.off('checkChanged', onCheckChanged);
      if (timer) clearTimeout(timer);
      await running;
    },
    tick,
  };
}
