// The soak's memory growth: measured from the first sample after the warm-up (10% of a long run,
// at least 30 s; a short run's first sample) to the last.
import { describe, expect, it } from 'vitest';
import { memoryGrowth, warmUpMs, type SoakSample } from '../../bench/lib/soak-sampler.ts';

const sample = (at: number, rss: number, heap = 100): SoakSample => ({ at, rss, heap, lagP99Ms: 1, lagMaxMs: 2 });

describe('soak memory growth', () => {
  it('warms up 10% of a long run, at least 30 s, and not at all on a short one', () => {
    expect(warmUpMs(30 * 60_000)).toBe(180_000);
    expect(warmUpMs(5 * 60_000)).toBe(30_000);
    expect(warmUpMs(60_000)).toBe(0);
  });

  it('measures from the first sample after the warm-up to the last', () => {
    const samples = [sample(10_000, 500), sample(20_000, 300, 100), sample(30_000, 310), sample(40_000, 315, 110)];
    const g = memoryGrowth(samples, 15_000);
    expect(g.first.at).toBe(20_000);
    expect(g.last.at).toBe(40_000);
    expect(g.growthPct).toBeCloseTo(5);
    expect(g.heapGrowthPct).toBeCloseTo(10);
  });

  it('starts from the first sample when none comes after the warm-up', () => {
    expect(memoryGrowth([sample(10_000, 200), sample(20_000, 220)], 60_000).growthPct).toBeCloseTo(10);
  });
});
