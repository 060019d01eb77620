// Healthchecks' replace() (hc/lib/string.py) and the Python encoders a webhook's placeholders use.
import { describe, expect, it } from 'vitest';
import { latin1, pythonJson, pythonQuote, replacePlaceholders } from '../../../../../src/monitoring/integrations/kinds/webhook/placeholders.ts';

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
});
