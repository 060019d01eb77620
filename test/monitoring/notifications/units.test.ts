// The pure parts: which flips notify, the retry schedule.
import { describe, expect, it } from 'vitest';
import { channelTakes, flipNotifies } from '../../../src/monitoring/notifications/outbox.ts';
import { DEFAULT_RETRY, nextAttemptAfter } from '../../../src/monitoring/notifications/retry.ts';

describe('flipNotifies (Healthchecks’ select_channels)', () => {
  it.each([
    ['up', 'down', true],
    ['new', 'down', true],
    ['paused', 'down', true],
    ['down', 'up', true],
    ['new', 'up', false],
    ['paused', 'up', false],
    ['up', 'paused', false],
    ['down', 'paused', false],
    ['paused', 'new', false],
  ])('%s → %s: %s', (from, to, expected) => {
    expect(flipNotifies(from, to)).toBe(expected);
  });

  it('skips disabled channels and statuses a channel opted out of', () => {
    const channel = { id: 1, disabled: false, notifyDown: true, notifyUp: false };
    expect(channelTakes(channel, 'down')).toBe(true);
    expect(channelTakes(channel, 'up')).toBe(false);
    expect(channelTakes({ ...channel, disabled: true }, 'down')).toBe(false);
  });
});

describe('retry schedule', () => {
  it('retries within 10 s first, at least 5 attempts over at least 10 minutes, then gives up', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const delays: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAfter(DEFAULT_RETRY, attempt, t0);
      if (!next) break;
      delays.push(next.getTime() - t0.getTime());
    }
    expect(delays).toEqual([5_000, 20_000, 80_000, 320_000, 1_280_000, 5_120_000]);
    expect(delays[0]).toBeLessThanOrEqual(10_000);
    expect(delays.length + 1).toBeGreaterThanOrEqual(5);
    expect(delays.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(600_000);
  });
});
