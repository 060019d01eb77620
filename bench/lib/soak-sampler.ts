// The soak's samples of a server process: RSS from /proc, the JS heap and the event loop's delay
// from /metrics (prom-client's default metrics; its event-loop histogram is reset at each
// scrape, so each sample's p99 covers the interval since the one before).
import { scrape } from './metrics.ts';
import { rssOf } from './server.ts';

export interface SoakSample {
  /** Milliseconds since the load started. */
  at: number;
  rss: number;
  heap: number;
  lagP99Ms: number;
  lagMaxMs: number;
}

export function startSampler(url: string, pid: number, everyMs: number, onSample?: (s: SoakSample) => void) {
  const started = Date.now();
  const samples: SoakSample[] = [];
  let running: Promise<void> = Promise.resolve();
  const take = async () => {
    const [rss, s] = await Promise.all([rssOf(pid), scrape(url)]);
    const sample = {
      at: Date.now() - started,
      rss,
      heap: s('nodejs_heap_size_used_bytes'),
      lagP99Ms: s('nodejs_eventloop_lag_p99_seconds') * 1000,
      lagMaxMs: s('nodejs_eventloop_lag_max_seconds') * 1000,
    };
    samples.push(sample);
    onSample?.(sample);
  };
  // The first scrape only resets the event-loop histogram (it holds everything since the start).
  running = scrape(url).then(() => undefined);
  const timer = setInterval(() => (running = running.then(take).catch(() => undefined)), everyMs);
  return {
    samples,
    /** Takes a last sample and stops. */
    async stop(): Promise<SoakSample[]> {
      clearInterval(timer);
      await running;
      await take();
      return samples;
    },
  };
}

/**
 * The warm-up a run of `ms` leaves out of its memory growth: 10% of the run, at least 30 s, for
 * runs of five minutes or more; shorter runs start from their first sample.
 */
export const warmUpMs = (ms: number) => (ms >= 300_000 ? Math.max(30_000, ms / 10) : 0);

/** Memory at the first sample after the warm-up and at the last one, and the growth between. */
export function memoryGrowth(samples: SoakSample[], warmUp: number) {
  const first = samples.find((s) => s.at >= warmUp) ?? samples[0]!;
  const last = samples.at(-1)!;
  return { first, last, growthPct: ((last.rss - first.rss) / first.rss) * 100, heapGrowthPct: ((last.heap - first.heap) / first.heap) * 100 };
}
