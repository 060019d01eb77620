// Bundles the dashboard and status pages (web/, Preact) with esbuild into dist/web/: hashed
// assets under assets/ and the index.html that names them. Hashed names let browsers keep
// assets for a year; only index.html is revalidated. `npm start` builds when web/ changed
// (start.mjs); the server also builds on its first page request when web/ is newer than the
// build (tests, `npm run dev`), so no way of starting it serves a stale or missing bundle.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when web/ (or this script) changed since dist/web/index.html was written. */
export function webIsStale(root = defaultRoot) {
  const index = path.join(root, 'dist/web/index.html');
  if (!existsSync(index)) return true;
  if (!existsSync(path.join(root, 'web'))) return false;
  const sources = Math.max(newestUnder(path.join(root, 'web')), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  return statSync(index).mtimeMs < sources;
}

const html = ({ js, css }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cron &amp; Campus Gateway</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/${css}">
<script type="module" src="/assets/${js}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;

export async function buildWeb(root = defaultRoot) {
  const out = path.join(root, 'dist/web');
  const assets = path.join(out, 'assets');
  // Built apart, then moved in file by file: processes building at the same time (parallel
  // test workers) write identical, content-named files, and index.html is replaced whole.
  const scratch = path.join(out, `.build-${process.pid}-${Date.now()}`);
  mkdirSync(assets, { recursive: true });
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['web/main.tsx'],
      outdir: scratch,
      entryNames: '[name]-[hash]',
      // Screens other than the first are imported when visited (web/lib/lazy.tsx): esbuild
      // makes each its own chunk, and the shared code a chunk of its own.
      splitting: true,
      chunkNames: '[name]-[hash]',
      bundle: true,
      format: 'esm',
      target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
      jsx: 'automatic',
      jsxImportSource: 'preact',
      minify: true,
      metafile: true,
      legalComments: 'none',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    const names = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
    // The entry's own files (not the chunks it loads later) go into index.html.
    const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint === 'web/main.tsx');
    const js = path.basename(entry[0]);
    const css = path.basename(entry[1].cssBundle ?? names.find((n) => n.endsWith('.css')));
    for (const name of names) renameSync(path.join(scratch, name), path.join(assets, name));
    const temporary = path.join(out, `.index-${process.pid}.html`);
    writeFileSync(temporary, html({ js, css }));
    renameSync(temporary, path.join(out, 'index.html'));
    // Earlier builds' assets go: index.html no longer names them.
    for (const name of readdirSync(assets)) if (!names.includes(name)) rmSync(path.join(assets, name), { force: true });
    return { js, css };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWeb();
