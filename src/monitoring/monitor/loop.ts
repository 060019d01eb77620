// The background monitor: runs a pass, then sleeps until the next going-down time or the
// interval, whichever is sooner. Passes never overlap; stop() waits for the running one.
import type { Logger } from 'pino';
import type { MonitoringDeps } from '../context.ts';
import { nextDueAt, runMonitorPass } from './pass.ts';

export interface Monitor {
  start(): void;
  stop(): Promise<void>;
  /** Runs a pass now (also used by tests); resolves when it finishes. */
  tick(): Promise<void>;
}

export function createMonitor(deps: MonitoringDeps, intervalMs: number, log?: Logger): Monitor {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function pass() {
    try {
      const now = deps.clock.now();
      const result = await runMonitorPass(deps, now);
      if (result.wentDown) log?.info({ wentDown: result.wentDown }, 'checks went down');
    } catch (err) {
      log?.error({ err }, 'monitor pass failed');
    }
  }

  async function schedule() {
    if (stopped) return;
    let delay = intervalMs;
    try {
      const due = await nextDueAt(deps);
      if (due) delay = Math.max(0, Math.min(intervalMs, due.getTime() - deps.clock.now().getTime()));
    } catch (err) {
      log?.error({ err }, 'monitor could not read the next due time');
    }
    if (stopped) return;
    timer = setTimeout(() => void tick().then(schedule), delay);
  }

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
      void tick().then(schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    tick,
  };
}
