// The first page's weight (issue #25): what a browser fetches before the sign-in form or the
// checks list can show (index.html's entry script and stylesheet plus every chunk the entry
// imports statically) is at most 60 KB gzipped. Screens loaded when visited (web/lib/lazy.tsx)
// are not counted. Read from the server as a browser reads it; the server builds dist/web when
// web/ is newer, as assets.test.ts relies on (see bench/web-weight.ts for how chunks are read).
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { firstPageWeight, staticImports } from '../../bench/web-weight.ts';

const w = useWorld();

const BUDGET = 60 * 1024;

describe('the first page', () => {
  it('counts the static imports esbuild writes, not the dynamic ones', () => {
    const code = 'import{a as b,c}from"./chunk-A.js";import"./chunk-B.js";import*as d from"./chunk-C.js";var x=()=>import("./Screen-D.js");import("./Screen-E.js")';
    expect(staticImports(code)).toEqual(['./chunk-A.js', './chunk-B.js', './chunk-C.js']);
  });

  it(`loads at most ${BUDGET / 1024} KB gzipped of scripts and styles: the entry, its stylesheet and the chunks it imports statically`, async () => {
    const { total, files } = await firstPageWeight(w.url);
    expect(files.some((f) => f.path.endsWith('.css'))).toBe(true);
    const rows = files.map((f) => `  ${f.path.padEnd(40)} ${(f.wire / 1024).toFixed(1).padStart(6)} KB gzipped (${(f.raw / 1024).toFixed(1)} KB)`);
    console.log(`first page: ${(total / 1024).toFixed(1)} KB gzipped in ${files.length} files (budget ${BUDGET / 1024} KB)\n${rows.join('\n')}`);
    expect(total, `the first page's scripts and styles weigh ${total} bytes gzipped`).toBeLessThanOrEqual(BUDGET);
  });
});
