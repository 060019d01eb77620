// The bounds every campus request meets: IDs within the 32-bit columns, text within its length.
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, MAX_INT, parseId, requireShortText } from '../../src/campus/limits.ts';
import { DomainError } from '../../src/shared/errors.ts';

describe('parseId', () => {
  it('reads an integer or a string of digits', () => {
    expect(parseId(0)).toBe(0);
    expect(parseId(42)).toBe(42);
    expect(parseId('42')).toBe(42);
    expect(parseId('007')).toBe(7);
  });

  it('accepts the largest 32-bit signed value and refuses one past it', () => {
    expect(parseId(MAX_INT)).toBe(2147483647);
    expect(parseId(String(MAX_INT))).toBe(2147483647);
    expect(parseId(MAX_INT + 1)).toBeNull();
    expect(parseId('2147483648')).toBeNull();
    expect(parseId('99999999999999999999999')).toBeNull();
  });

  it('refuses negatives, fractions, signs, spaces, handles and other types', () => {
    for (const v of [-1, 1.5, NaN, Infinity, '-1', '+1', '1.0', ' 1', '1e3', '', 'math-101', null, undefined, true, [1], { ID: 1 }]) {
      expect(parseId(v), String(v)).toBeNull();
    }
  });
});

describe('requireShortText', () => {
  it('lets text up to the bound, and absent values, through', () => {
    expect(() => requireShortText('term', 'x'.repeat(200), 200)).not.toThrow();
    expect(() => requireShortText('term', undefined, 200)).not.toThrow();
    expect(() => requireShortText('term', null, 200)).not.toThrow();
  });

  it('refuses longer text as a request error (REST 400, GraphQL VALIDATION) naming the parameter', () => {
    let thrown: unknown;
    try {
      requireShortText('enrolled_user', 'x'.repeat(201), 200);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'VALIDATION', message: 'enrolled_user is too long: at most 200 characters' });
  });
});
