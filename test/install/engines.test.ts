// Install hygiene (issues #11, #29): package.json `engines` names the Node versions CI runs the
// suite on: Node 24, the primary (`.ci/run` runs everything on it), and Node 20.19+, the legacy
// path (a part of the suite, with better-sqlite3 12: 13 needs Node 22). On the primary, `npm ci`
// prints no EBADENGINE warning: npm warns when a locked package declares an `engines.node` range
// the running Node is outside of, and the lockfile records each package's range, so the check
// needs no install. On Node 20 the packages that declare Node 22+ warn, as the README says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8'));
const ci = readFileSync(path.join(projectRoot, '.ci/run'), 'utf8');

type Locked = { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean; os?: string[]; cpu?: string[] };
// Platform packages for other systems (sharp's win32 builds…) are never installed here, so never warn.
const installable = (pkg: Locked) => (!pkg.os || pkg.os.includes(process.platform)) && (!pkg.cpu || pkg.cpu.includes(process.arch));
const packages = Object.entries(lock.packages as Record<string, Locked>).filter(([key, pkg]) => key !== '' && installable(pkg));

function refusing(node: string): string[] {
  return packages
    .filter(([, pkg]) => pkg.engines && !Array.isArray(pkg.engines) && pkg.engines.node)
    .filter(([, pkg]) => !semver.satisfies(node, (pkg.engines as { node: string }).node))
    .map(([key, pkg]) => `${key.replace(/^.*node_modules\//, '')}@${pkg.version}`);
}

describe('install hygiene', () => {
  it('engines names the Nodes CI tests: 24 (the primary) and 20.19+ (the legacy path)', () => {
    expect(manifest.engines.node).toBe('^20.19.0 || >=24');
    expect(ci).toMatch(/node@24\b/);
    expect(ci).toMatch(/legacy-node20/);
    expect(semver.satisfies('22.12.0', manifest.engines.node)).toBe(false);
  });

  it('every locked package accepts Node 24 (no EBADENGINE on the primary)', () => {
    expect(refusing('24.0.0')).toEqual([]);
  });

  it('on Node 20 only the packages the README names as declaring Node 22+ warn', () => {
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    const names = [...new Set(refusing('20.19.0').map((p) => p.replace(/@[^@]+$/, '')))];
    expect(names).toContain('better-sqlite3');
    for (const name of names.filter((n) => !n.startsWith('@whatwg-node/'))) expect(readme, `${name} declares Node 22+`).toContain(name);
  });

  it('every dependency install script is approved or denied (no allowScripts warning)', () => {
    const withScripts = packages.filter(([, pkg]) => pkg.hasInstallScript).map(([key]) => key.replace(/^.*node_modules\//, ''));
    const unreviewed = [...new Set(withScripts)].filter((name) => !(name in manifest.allowScripts));
    expect(unreviewed).toEqual([]);
  });
});
