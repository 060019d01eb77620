// No import circle among the modules of src/, rest-compat/ and web/ (issue #23): a circle means
// two rooms that cannot be understood, tested or moved apart. Type-only imports count too: they
// tie the modules' meanings together even where the bundler drops them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('finds no import circle in src/, rest-compat/ or web/', () => {
  const circles = importCircles(importGraph(root, ['src', 'rest-compat', 'web'])).map((c) => c.join(' <-> '));
  expect(circles).toEqual([]);
});

it('reads the graph it judges (every layer is there, imports resolved)', () => {
  const graph = importGraph(root, ['src', 'rest-compat', 'web']);
  expect(graph.get('src/app.ts')?.length).toBeGreaterThan(5);
  expect([...graph.keys()].some((f) => f.startsWith('rest-compat/'))).toBe(true);
  expect([...graph.keys()].some((f) => f.startsWith('web/') && f.endsWith('.tsx'))).toBe(true);
});

it('reports a circle when there is one', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
});
