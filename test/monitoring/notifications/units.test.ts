// The pure parts: which flips notify, the retry schedule, Healthchecks' replace() and quote().
import { describe, expect, it } from 'vitest';
import { channelTakes, flipNotifies } from '../../../src/monitoring/notifications/outbox.ts';
import { DEFAULT_RETRY, nextAttemptAfter } from '../../../src/monitoring/notifications/retry.ts';
import { latin1, pythonJson, pythonQuote, replacePlaceholders } from '../../../src/monitoring/notifications/transports/placeholders.ts';
import { formatDuration } from '../../../src/monitoring/notifications/transports/text.ts';

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

describe('replacePlaceholders (hc/lib/string.py)', () => {
  const ctx = new Map([
    ['$FOO', '$BAR'],
    ['$BAR', 'World'],
  ]);
  it('never expands a placeholder that appears in a substituted value', () => {
    expect(replacePlaceholders('Hello $FOO', ctx)).toBe('Hello $BAR');
    expect(replacePlaceholders('Hello $$FOO', new Map([['$FOO', 'BAR'], ['$BAR', 'World']]))).toBe('Hello $BAR');
  });
  it('takes the first placeholder in insertion order, as Healthchecks does ($NAME_JSON before $NAME, $TAG1 before $TAG10)', () => {
    const tags = new Map([
      ['$NAME_JSON', '"x"'],
      ['$NAME', 'x'],
      ...Array.from({ length: 10 }, (_, i) => [`$TAG${i + 1}`, `t${i + 1}`] as [string, string]),
    ]);
    expect(replacePlaceholders('$NAME_JSON $NAME $TAG1 $TAG10 $UNKNOWN', tags)).toBe('"x" x t1 t10 $UNKNOWN');
  });
  it('leaves text without placeholders alone', () => {
    expect(replacePlaceholders('no dollars', ctx)).toBe('no dollars');
    expect(replacePlaceholders('$', ctx)).toBe('$');
  });
});

describe('Python-compatible encoders', () => {
  it('quote() keeps letters, digits, "_.-~/" and encodes the rest as UTF-8', () => {
    expect(pythonQuote('a b/c?d=é&~_.-')).toBe('a%20b/c%3Fd%3D%C3%A9%26~_.-');
  });
  it('json.dumps() uses Python’s separators and ASCII escapes', () => {
    expect(pythonJson({ name: 'é', n: 1, tags: ['a'], none: null })).toBe('{"name": "\\u00e9", "n": 1, "tags": ["a"], "none": null}');
  });
  it('Latin-1 header values turn other characters into XML references', () => {
    expect(latin1('café ☃')).toBe('café &#9731;');
  });
  it('format_duration names whole weeks only', () => {
    expect(formatDuration(86400)).toBe('1 day');
    expect(formatDuration(604800)).toBe('1 week');
    expect(formatDuration(691200)).toBe('8 days');
    expect(formatDuration(5400)).toBe('1 hour 30 minutes');
  });
});
