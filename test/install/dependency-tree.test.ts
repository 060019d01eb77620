// The dependency tree as its authors declared it (issue #29): `npm ls` finds no package outside
// the range its dependent declares, none missing, and none overridden, in the production install
// (`--omit=dev`: the native packages the production build leaves outside its bundles) and in the
// whole tree the bundles are built from. The one override, `graphql: $graphql`, keeps a single
// graphql-js (several copies break `instanceof` checks) and stays within every declared range;
// it is not reported as overridden while it does.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

type Node = { version?: string; invalid?: string; missing?: boolean; overridden?: boolean; problems?: string[]; dependencies?: Record<string, Node> };

function npmLs(args: string[]): Node {
  try {
    return JSON.parse(execFileSync('npm', ['ls', '--all', '--json', ...args], { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (err) {
    // npm ls exits 1 when it finds a problem; its JSON still says which.
    return JSON.parse((err as { stdout: string }).stdout);
  }
}

function problems(tree: Node): string[] {
  const found: string[] = [...(tree.problems ?? [])];
  const walk = (node: Node, trail: string) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (child.invalid || child.missing || child.overridden) {
        found.push(`${trail}${name}@${child.version ?? '?'}${child.invalid ? ' invalid' : ''}${child.missing ? ' missing' : ''}${child.overridden ? ' overridden' : ''}`);
      }
      walk(child, `${trail}${name} > `);
    }
  };
  walk(tree, '');
  return [...new Set(found)];
}

describe('the dependency tree', () => {
  it('in production (npm ls --omit=dev): nothing invalid, missing or overridden, and only the native packages', () => {
    const tree = npmLs(['--omit=dev']);
    expect(problems(tree)).toEqual([]);
    expect(Object.keys(tree.dependencies ?? {}).sort()).toEqual(['better-sqlite3', 'sharp']);
  });

  it('in development (npm ls): nothing invalid, missing or overridden', () => {
    expect(problems(npmLs([]))).toEqual([]);
  });

  it('overrides only graphql, to the version the project itself declares', () => {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    expect(manifest.overrides).toEqual({ graphql: '$graphql' });
  });
});
