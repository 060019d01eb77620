// The project's import graph, read with TypeScript's own scanner (static imports, `import type`,
// re-exports and dynamic `import()` alike), and its circles (strongly connected components).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.tsx?$/;

export function sourcesUnder(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === 'generated' || name === 'node_modules') return [];
    if (statSync(path.join(root, rel)).isDirectory()) return sourcesUnder(root, rel);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Relative imports of one file, resolved to project paths (bare packages are left out). */
export function importsOf(root: string, file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    let target = path.normalize(path.join(path.dirname(file), fileName));
    if (target.endsWith('.js')) target = target.replace(/\.js$/, '.ts');
    if (!SOURCE.test(target)) target = [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((t) => exists(root, t)) ?? target;
    out.push(target);
  }
  return out;
}

function exists(root: string, rel: string): boolean {
  try {
    return statSync(path.join(root, rel)).isFile();
  } catch {
    return false;
  }
}

export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) => sourcesUnder(root, dir));
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(root, file).filter((t) => known.has(t))]));
}

/** Tarjan's strongly connected components of two or more files: every import circle. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => b.length - a.length);
}
