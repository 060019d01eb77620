// isoString writes exactly what toISOString writes, for every date (and throws as it does).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isoString } from '../../src/shared/iso-date.ts';

it('writes what toISOString writes, over the whole range of dates', () => {
  fc.assert(
    fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (t) => {
      const d = new Date(t);
      expect(isoString(d)).toBe(d.toISOString());
    }),
    { numRuns: 20_000 },
  );
});

it('at the edges: the epoch, leap days, ends of years and centuries, year 9999 and 10000', () => {
  const edges = ['1970-01-01T00:00:00.000Z', '1999-12-31T23:59:59.999Z', '2000-02-29T12:00:00.001Z', '2100-02-28T23:59:59.999Z', '2100-03-01T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '+010000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z'];
  for (const text of edges) expect(isoString(new Date(text))).toBe(text);
  for (let t = Date.UTC(1999, 11, 25); t < Date.UTC(2001, 0, 5); t += 3_600_000 + 1) expect(isoString(new Date(t))).toBe(new Date(t).toISOString());
});

it('throws for an invalid date, as toISOString does', () => {
  expect(() => isoString(new Date(NaN))).toThrow(RangeError);
});
