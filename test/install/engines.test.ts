// Install hygiene (issue #11): `npm install` on the Node we promise (package.json `engines`)
// prints no EBADENGINE warning. npm warns when a locked package declares an `engines.node`
// range the running Node is outside of; the lockfile records each package's range, so the
// check needs no install: every locked package must accept our lowest supported Node.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8'));

describe('install hygiene', () => {
  const lowest = semver.minVersion(manifest.engines.node)!.version;

  it('the lowest Node the README promises is the one engines names', () => {
    expect(lowest).toBe('20.19.0');
  });

  it('every locked package accepts that Node (no EBADENGINE on npm install)', () => {
    const refusing = Object.entries(lock.packages as Record<string, { version?: string; engines?: { node?: string } | string[] }>)
      .filter(([key, pkg]) => key !== '' && pkg.engines && !Array.isArray(pkg.engines) && pkg.engines.node)
      .filter(([, pkg]) => !semver.satisfies(lowest, (pkg.engines as { node: string }).node))
      .map(([key, pkg]) => `${key.replace(/^.*node_modules\//, '')}@${pkg.version} wants node ${(pkg.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('every dependency install script is approved or denied (no allowScripts warning)', () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([key, pkg]) => key !== '' && pkg.hasInstallScript)
      .map(([key]) => key.replace(/^.*node_modules\//, ''));
    const unreviewed = [...new Set(withScripts)].filter((name) => !(name in manifest.allowScripts));
    expect(unreviewed).toEqual([]);
  });
});
