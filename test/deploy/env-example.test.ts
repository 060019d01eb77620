// .env.example documents every setting: each of src/config/settings.ts's names once, with a
// comment line above it and the default the code uses; nothing else; and the file as it is
// (empty values meaning unset) is a configuration the gateway accepts, equal to no file at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { SETTINGS, SETTING_NAMES } from '../../src/config/settings.ts';

const lines = readFileSync(path.join(import.meta.dirname, '..', '..', '.env.example'), 'utf8').split('\n');
const entries = lines.flatMap((line, i) => {
  const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  return m ? [{ name: m[1]!, value: m[2]!, comment: lines[i - 1] ?? '' }] : [];
});

describe('.env.example', () => {
  it('names every setting once, and nothing else', () => {
    expect(entries.map((e) => e.name)).toEqual(SETTING_NAMES);
  });

  it("gives each the code's default (empty where unset means off or derived)", () => {
    const documented = Object.fromEntries(entries.map((e) => [e.name, e.value]));
    const defaults = Object.fromEntries(SETTING_NAMES.map((name) => [name, SETTINGS[name].default ?? '']));
    expect(documented).toEqual(defaults);
  });

  it('puts a one-line comment above each', () => {
    expect(entries.filter((e) => !/^# \S/.test(e.comment)).map((e) => e.name)).toEqual([]);
  });

  it('is, as written, the configuration of an empty environment', () => {
    const env = Object.fromEntries(entries.map((e) => [e.name, e.value]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
