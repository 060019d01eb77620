import { expect, it } from 'vitest';
import { parseFlipsQuery } from '../../../src/monitoring/flips/flips-query.ts';
import { DomainError } from '../../../src/shared/errors.ts';

it('absent parameters give an empty filter', () => {
  expect(parseFlipsQuery({})).toEqual({});
});

it('parses start and end like Python int()', () => {
  expect(parseFlipsQuery({ start: '1000', end: '2000' })).toEqual({ start: 1000, end: 2000 });
  expect(parseFlipsQuery({ start: ' +1_000 ', end: '\t2000\n' })).toEqual({ start: 1000, end: 2000 });
  expect(parseFlipsQuery({ start: '0', end: '10000000000' })).toEqual({ start: 0, end: 10000000000 });
  expect(parseFlipsQuery({ start: '-0', end: '007' })).toEqual({ start: 0, end: 7 });
  expect(parseFlipsQuery({ start: '\u00a012\u3000' })).toEqual({ start: 12 }); // Unicode whitespace
  expect(parseFlipsQuery({ start: '١٢٣', end: '１_０' })).toEqual({ start: 123, end: 10 }); // Unicode digits
});

it('parses seconds like a Django IntegerField: blank is absent, a trailing ".0" is dropped', () => {
  expect(parseFlipsQuery({ seconds: '60' })).toEqual({ seconds: 60 });
  expect(parseFlipsQuery({ seconds: '' })).toEqual({});
  expect(parseFlipsQuery({ seconds: '0' })).toEqual({ seconds: 0 });
  expect(parseFlipsQuery({ seconds: '31536000' })).toEqual({ seconds: 31536000 });
  expect(parseFlipsQuery({ seconds: ' +3_600 ' })).toEqual({ seconds: 3600 });
  expect(parseFlipsQuery({ seconds: '60.0' })).toEqual({ seconds: 60 });
  expect(parseFlipsQuery({ seconds: '60.' })).toEqual({ seconds: 60 });
  expect(parseFlipsQuery({ seconds: '60.000 ' })).toEqual({ seconds: 60 });
});

it.each([
  { start: '' },
  { start: ' ' },
  { start: 'abc' },
  { end: '1.5' },
  { end: '1.0' }, // int() takes no decimal point, unlike the IntegerField
  { start: '-1' },
  { end: '10000000001' },
  { start: '99999999999999999999999999' },
  { start: '1__0' },
  { start: '_1' },
  { start: '1_' },
  { start: '+-1' },
  { start: '+ 1' },
  { start: '1e3' },
  { start: '0x10' },
  { start: '\x1c1' }, // int() skips only ASCII whitespace among ASCII characters
  { seconds: ' ' },
  { seconds: '-1' },
  { seconds: '31536001' },
  { seconds: 'x' },
  { seconds: '1.5' },
  { seconds: '.0' },
  { start: '1', seconds: 'x' },
])('rejects %j', (query) => {
  let caught: unknown;
  try {
    parseFlipsQuery(query);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe('VALIDATION');
  expect((caught as Error).message).toBe('invalid flips query');
});
