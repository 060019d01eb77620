#!/usr/bin/env node
// Launcher for the operator CLI, from any directory. In a checkout (tsx installed): runs
// src/cli/main.ts under tsx, so the CLI is always the sources' own. In a production install
// (`npm ci --omit=dev`): runs the production build's dist/cli.mjs (`npm run build`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const built = new URL('../dist/cli.mjs', import.meta.url);
let tsx;
try {
  tsx = createRequire(import.meta.url).resolve('tsx/esm/api');
} catch {
  tsx = undefined;
}
if (tsx && existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('gateway: dist/cli.mjs is missing: run `npm run build` where the development packages are installed\n');
  process.exitCode = 1;
}
