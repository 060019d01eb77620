import { expect, it } from 'vitest';
import { parseFlipsQuery } from '../../../src/monitoring/flips/flips-query.ts';

it('parses start and end like Python int() and seconds like a Django IntegerField', () => {
  expect(parseFlipsQuery({})).toEqual({});
  expect(parseFlipsQuery({ start: ' +1_000 ', end: '2000', seconds: '60' })).toEqual({ start: 1000, end: 2000, seconds: 60 });
  expect(parseFlipsQuery({ seconds: '' })).toEqual({});
});

it.each([{ start: '' }, { start: 'abc' }, { end: '1.5' }, { start: '-1' }, { end: '10000000001' }, { seconds: '-1' }, { seconds: '31536001' }, { seconds: 'x' }, { start: '1__0' }])(
  'rejects %j',
  (query) => expect(() => parseFlipsQuery(query)).toThrow('invalid flips query'),
);
