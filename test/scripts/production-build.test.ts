// The production build (issue #29): `npm run build` makes a self-contained dist/ that runs with
// only the production install's packages (the native ones), as a user who cannot write a byte
// outside the data folder, and the two together stay within 200 MB. The app folder here is what
// the Dockerfile's runtime stage holds: package.json, node_modules of `npm ci --omit=dev`
// (copied from this install: the packages `npm ls --omit=dev` names), dist/ and bin/.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { buildScript } from '../helpers/gateway-process.ts';

const LIMIT_MB = 200;
const isRoot = process.getuid?.() === 0;

function sizeOf(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
}

/** The folders of the production packages in this install (`npm ls --omit=dev`). */
function productionPackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: projectRoot, encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line && line !== projectRoot)
    .map((line) => path.relative(projectRoot, line));
}

let app: string;
let data: string;
let nobody: { uid: number; gid: number } | undefined;
/** A Node binary the unprivileged user can run (see runnableNode). */
let node = process.execPath;
let nodeCopy: string | undefined;

/**
 * This Node, or a copy of it the unprivileged user can run: CI installs Node 24 under root's
 * home (mode 700), where `nobody` cannot reach it. An image has its Node in /usr/local/bin.
 */
function runnableNode(user: { uid: number; gid: number }): string {
  try {
    execFileSync(process.execPath, ['-e', ''], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
    return process.execPath;
  } catch {
    nodeCopy = mkdtempSync(path.join(os.tmpdir(), 'gateway-node-'));
    chmodSync(nodeCopy, 0o755);
    const copy = path.join(nodeCopy, 'node');
    cpSync(process.execPath, copy);
    chmodSync(copy, 0o755);
    return copy;
  }
}

beforeAll(async () => {
  app = mkdtempSync(path.join(os.tmpdir(), 'gateway-production-'));
  await (await buildScript()).buildProduction(path.join(app, 'dist'));
  for (const pkg of productionPackages()) cpSync(path.join(projectRoot, pkg), path.join(app, pkg), { recursive: true, dereference: true });
  cpSync(path.join(projectRoot, 'package.json'), path.join(app, 'package.json'));
  cpSync(path.join(projectRoot, 'bin'), path.join(app, 'bin'), { recursive: true });
  // `npm start` (scripts/start.mjs) as a checkout installed with --omit=dev has it: no esbuild.
  cpSync(path.join(projectRoot, 'scripts/start.mjs'), path.join(app, 'scripts/start.mjs'));
  data = path.join(app, 'data');
  mkdirSync(data);
  // The app folder readable by all and writable by root only; the data folder the server user's.
  chmodSync(app, 0o755);
  if (isRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
    nobody = { uid: id('-u'), gid: id('-g') };
    chownSync(data, nobody.uid, nobody.gid);
    node = runnableNode(nobody);
  }
}, 180_000);

afterAll(() => {
  rmSync(app, { recursive: true, force: true });
  if (nodeCopy) rmSync(nodeCopy, { recursive: true, force: true });
});

describe('the production build', () => {
  it(`with the production install stays within ${LIMIT_MB} MB`, () => {
    const modules = sizeOf(path.join(app, 'node_modules'));
    const dist = sizeOf(path.join(app, 'dist'));
    const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;
    console.log(`production install: node_modules ${mb(modules)} MB (${productionPackages().join(', ')}), dist ${mb(dist)} MB, together ${mb(modules + dist)} MB`);
    expect(mb(modules + dist)).toBeLessThanOrEqual(LIMIT_MB);
  });

  it.skipIf(!isRoot)('`npm start` serves and stops as a user who can write only the data folder, with only the native packages installed', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const env = { PATH: process.env.PATH!, HOME: data, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `file:${data}/gateway.db`, MEDIA_DIR: `${data}/media` };
    const run = (args: string[]) => execFileSync(node, args, { cwd: app, env, uid: nobody!.uid, gid: nobody!.gid, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // The app folder is not writable for this user: writing there must fail.
    expect(() => run(['-e', `require('fs').writeFileSync(${JSON.stringify(path.join(app, 'dist', 'x'))}, '')`])).toThrow();
    expect(run(['bin/gateway.mjs', '--version']).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const created = JSON.parse(run(['bin/gateway.mjs', 'project', 'create', '--name', 'Nightly', '--json']));
    // What `npm start` runs: with no esbuild here it must run dist/ as built, building nothing.
    const server = spawn(node, ['scripts/start.mjs'], { cwd: app, env, uid: nobody!.uid, gid: nobody!.gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (d) => (output += d));
    server.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready: Response | undefined;
      for (let i = 0; i < 100 && !ready?.ok; i++) {
        ready = await fetch(`${base}/readyz`).catch(() => undefined);
        if (!ready?.ok) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready?.status, output).toBe(200);
      const check = await fetch(`${base}/api/v3/checks/`, {
        method: 'POST',
        headers: { 'X-Api-Key': created.api_key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'backup', timeout: 3600 }),
      });
      expect(check.status, output).toBe(201);
      const { ping_url } = (await check.json()) as { ping_url: string };
      const ping = await fetch(`${base}/ping/${ping_url.split('/').pop()}`);
      expect(await ping.text()).toBe('OK');
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/assets/');
      const graphql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'X-Api-Key': created.api_key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ project { checks(first: 5) { nodes { name status } } } }' }),
      });
      expect(await graphql.json()).toEqual({ data: { project: { checks: { nodes: [{ name: 'backup', status: 'UP' }] } } } });
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
    expect(output).not.toMatch(/Assertion failed|EACCES|EROFS/);
  }, 120_000);
});
