// The wire format of the Redis event bus gives back exactly what it was given: Dates, byte
// bodies (Buffer and Uint8Array stay what they were), BigInts, undefined, and keys that look
// like its own tags.
import { expect, it } from 'vitest';
import { taggedJson } from '../../src/events/tagged-json.ts';
import { sampleCheck, sampleFlip, samplePing } from './samples.ts';

const roundTrip = <T>(value: T): T => taggedJson.parse(taggedJson.stringify(value)) as T;

it('gives back a check row with its Dates and nulls', () => {
  const back = roundTrip({ projectId: 'p1', checkId: 7, change: 'status', check: sampleCheck });
  expect(back).toStrictEqual({ projectId: 'p1', checkId: 7, change: 'status', check: sampleCheck });
  expect(back.check.lastPing).toBeInstanceOf(Date);
});

it('gives back ping bodies byte for byte, as the same kind of array', () => {
  const bytes = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x7b, 0x22]);
  const asBuffer = roundTrip(samplePing(bytes));
  expect(Buffer.isBuffer(asBuffer.body)).toBe(true);
  expect(asBuffer).toStrictEqual(samplePing(bytes));
  // A view into a larger buffer: only its own bytes travel.
  const view = new Uint8Array(new Uint8Array([9, 9, 1, 2, 3, 9]).buffer, 2, 3);
  const asView = roundTrip(samplePing(view));
  expect(Buffer.isBuffer(asView.body)).toBe(false);
  expect(asView.body).toStrictEqual(new Uint8Array([1, 2, 3]));
  expect(roundTrip(samplePing(null))).toStrictEqual(samplePing(null));
  expect(roundTrip(samplePing(Buffer.alloc(0)))).toStrictEqual(samplePing(Buffer.alloc(0)));
});

it('gives back a flip, BigInts, undefined and invalid Dates', () => {
  expect(roundTrip(sampleFlip)).toStrictEqual(sampleFlip);
  const odd = { big: 2n ** 70n, none: undefined, list: [undefined, 1n, new Date(0)], bad: new Date(NaN) };
  const back = roundTrip(odd);
  expect(back).toStrictEqual(odd);
  expect('none' in back).toBe(true);
  expect(Number.isNaN(back.bad.getTime())).toBe(true);
});

it("keeps a payload's own keys that look like tags, and __proto__ as a plain key", () => {
  const record = JSON.parse('{"ID": 1, "$": "Date", "v": 5, "$$x": {"$": "BigInt"}, "__proto__": {"polluted": true}}') as Record<string, unknown>;
  const back = roundTrip({ kind: 'Person', action: 'updated', record });
  expect(back).toStrictEqual({ kind: 'Person', action: 'updated', record });
  expect(Object.getPrototypeOf(back.record)).toBe(Object.prototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

it('refuses a tag it does not know rather than guessing', () => {
  expect(() => taggedJson.parse('{"$":"toString","v":1}')).toThrow(/unknown tag/);
});
