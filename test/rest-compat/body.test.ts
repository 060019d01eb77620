// The strict body decoders both REST layers share (src/http/body.ts).
import { describe, expect, it } from 'vitest';
import { BodyParseError, jsonNestedDeeperThan, mediaType, parseForm, parseJson } from '../../src/http/body.ts';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof BodyParseError) return err.problem;
    throw err;
  }
  return null;
};

describe('jsonNestedDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonNestedDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(jsonNestedDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":"\\"[[[[","b":1}', 1)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":"\\\\","b":[[]]}', 2)).toBe(true);
    expect(jsonNestedDeeperThan('[]'.repeat(10_000), 1)).toBe(false);
  });

  it('scans a megabyte of brackets in linear time', () => {
    const started = performance.now();
    expect(jsonNestedDeeperThan('['.repeat(1024 * 1024), 64)).toBe(true);
    expect(jsonNestedDeeperThan(`"${'['.repeat(1024 * 1024)}"`, 64)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('parseJson', () => {
  it('parses UTF-8 JSON within the depth', () => {
    expect(parseJson(bytes('{"Title":"Zürich","a":[[1]]}'), 3)).toEqual({ Title: 'Zürich', a: [[1]] });
  });

  it('names the problem: utf8, json or depth', () => {
    expect(problem(() => parseJson(Buffer.from([0x22, 0xff, 0x22]), 8))).toBe('utf8');
    expect(problem(() => parseJson(bytes('{"a":'), 8))).toBe('json');
    expect(problem(() => parseJson(bytes('[[[]]]'), 2))).toBe('depth');
  });
});

describe('parseForm', () => {
  it('decodes like PHP: + is a space, malformed % is kept, order and repeats kept', () => {
    expect(parseForm(bytes('a=1+2&b=%41%e2%82%ac&c=100%&d=%zz&&e&a=3'), 8)).toEqual([
      ['a', '1 2'],
      ['b', 'A€'],
      ['c', '100%'],
      ['d', '%zz'],
      ['e', ''],
      ['a', '3'],
    ]);
    expect(parseForm(bytes('_LOGIN[username]=u'), 8)).toEqual([['_LOGIN[username]', 'u']]);
  });

  it('refuses bytes that are not UTF-8, raw or percent-encoded, and keys nested too deeply', () => {
    expect(problem(() => parseForm(Buffer.from([0x61, 0x3d, 0xc3, 0x28]), 8))).toBe('utf8');
    expect(problem(() => parseForm(bytes('a=%C3%28'), 8))).toBe('utf8');
    expect(problem(() => parseForm(bytes(`a${'[x]'.repeat(8)}=1`), 8))).toBe('depth');
    expect(parseForm(bytes(`a${'[x]'.repeat(7)}=1`), 8)).toHaveLength(1);
  });
});

describe('mediaType', () => {
  it('drops parameters and case', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(undefined)).toBe('');
  });
});
