// Slate's search syntax (Emergence\SearchStringParser) as parseSearch reads it: qualifiers,
// quotes, escapes, duplicates and the bounds, without a database.
import { describe, expect, it } from 'vitest';
import { parseSearch } from '../../src/campus/search-string.ts';
import { InvalidRequestError, SEARCH_MAX_CHARS, SEARCH_MAX_WORDS } from '../../src/campus/limits.ts';

describe('parseSearch', () => {
  it('splits bare words on any whitespace; a bare word has no qualifier (Slate: any)', () => {
    expect(parseSearch('  algebra\tii\nmath ')).toEqual([
      { qualifier: null, term: 'algebra' },
      { qualifier: null, term: 'ii' },
      { qualifier: null, term: 'math' },
    ]);
  });

  it('reads qualifier:term and lower-cases the qualifier but not the term', () => {
    expect(parseSearch('Last:Lovelace FIRST:Ada')).toEqual([
      { qualifier: 'last', term: 'Lovelace' },
      { qualifier: 'first', term: 'Ada' },
    ]);
  });

  it('keeps a quoted phrase whole, after a qualifier too, with any of the quote characters', () => {
    expect(parseSearch('"World History" title:\'Linear Algebra\' “Rock n Roll“')).toEqual([
      { qualifier: null, term: 'World History' },
      { qualifier: 'title', term: 'Linear Algebra' },
      { qualifier: null, term: 'Rock n Roll' },
    ]);
  });

  it('closes a phrase only at the character that opened it, as Slate does (“…” keeps the ”)', () => {
    expect(parseSearch('“Rock n Roll” 101')).toEqual([{ qualifier: null, term: 'Rock n Roll” 101' }]);
  });

  it('keeps an escaped closing quote as a quote', () => {
    expect(parseSearch('"say \\"hi\\" now"')).toEqual([{ qualifier: null, term: 'say "hi" now' }]);
  });

  it('a colon inside quotes or after the term is part of the term', () => {
    expect(parseSearch('"a:b" code:MATH:1')).toEqual([
      { qualifier: null, term: 'a:b' },
      { qualifier: 'code', term: 'MATH:1' },
    ]);
  });

  it('drops a qualifier without a term, and reads a leading colon as a bare term', () => {
    expect(parseSearch('first: :ada')).toEqual([{ qualifier: null, term: 'ada' }]);
  });

  it('treats words differing only in case as one term, keeping the first spelling', () => {
    expect(parseSearch('Math math MATH title:Math title:math')).toEqual([
      { qualifier: null, term: 'Math' },
      { qualifier: 'title', term: 'Math' },
    ]);
  });

  it('splits on NUL as on a space (SQLite ends a LIKE pattern at it)', () => {
    expect(parseSearch('alg\0ebra')).toEqual([
      { qualifier: null, term: 'alg' },
      { qualifier: null, term: 'ebra' },
    ]);
  });

  it('keeps a character outside the BMP whole', () => {
    expect(parseSearch('🎓grad')).toEqual([{ qualifier: null, term: '🎓grad' }]);
  });

  it('returns no terms for blank text or quotes alone', () => {
    expect(parseSearch('   ')).toEqual([]);
    expect(parseSearch('""')).toEqual([]);
  });

  it(`allows ${SEARCH_MAX_CHARS} characters after trimming and refuses one more`, () => {
    expect(parseSearch(`  ${'x'.repeat(SEARCH_MAX_CHARS)}  `)).toHaveLength(1);
    expect(() => parseSearch('x'.repeat(SEARCH_MAX_CHARS + 1))).toThrow(InvalidRequestError);
    expect(() => parseSearch('x'.repeat(SEARCH_MAX_CHARS + 1))).toThrow(`Search text is too long: at most ${SEARCH_MAX_CHARS} characters`);
  });

  it(`allows ${SEARCH_MAX_WORDS} distinct terms (repeats not counted) and refuses one more`, () => {
    const words = Array.from({ length: SEARCH_MAX_WORDS }, (_, i) => `w${i}`);
    expect(parseSearch([...words, ...words.map((x) => x.toUpperCase())].join(' '))).toHaveLength(SEARCH_MAX_WORDS);
    expect(() => parseSearch([...words, 'one-more'].join(' '))).toThrow(`Search has too many words: at most ${SEARCH_MAX_WORDS}`);
  });
});
