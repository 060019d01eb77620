// What the management app's first page weighs (issue #25): index.html's entry script and
// stylesheet plus every chunk the entry imports statically (transitively), in bytes on the wire
// with gzip accepted, read from a running server as a browser reads them. Screens loaded when
// visited (web/lib/lazy.tsx: `import()`) are not counted. Used by the web-render benchmark and by
// test/web/bundle-size.test.ts (the 60 KB budget).
//
// The static imports are read from the chunks themselves: esbuild writes a chunk's
// `import … from "./x.js"` statements first, and they are exactly its metafile's
// 'import-statement' edges; `import()` calls (the 'dynamic-import' edges) come later in the code.

export interface FirstPageWeight {
  /** Bytes on the wire of every file, gzipped where the server compresses it. */
  total: number;
  files: Array<{ path: string; wire: number; raw: number }>;
}

/** The files a chunk imports statically: the `import…from"./x.js"` / `import"./x.js"` statements at its top. */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  const head = /^\s*import\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["'];?/;
  let rest = code;
  for (let m = head.exec(rest); m; m = head.exec(rest)) {
    found.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return found;
}

/** The first page's scripts and styles as served at `site` (http://host:port). */
export async function firstPageWeight(site: string): Promise<FirstPageWeight> {
  const get = async (path: string) => {
    const res = await fetch(site + path, { headers: { 'Accept-Encoding': 'gzip' } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    const text = await res.text();
    // Files too small to gain from compression come as they are: their size is their wire size.
    return { text, wire: Number(res.headers.get('content-length') ?? Buffer.byteLength(text)), raw: Buffer.byteLength(text) };
  };
  const index = (await get('/')).text;
  const entry = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  const styles = [...index.matchAll(/<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  if (!entry || !styles.length) throw new Error(`index.html names no entry script or stylesheet:\n${index}`);
  const files = new Map<string, { wire: number; raw: number }>();
  const visit = async (asset: string) => {
    if (files.has(asset)) return;
    const { text, wire, raw } = await get(asset);
    files.set(asset, { wire, raw });
    if (asset.endsWith('.js')) for (const spec of staticImports(text)) await visit(new URL(spec, `http://x${asset}`).pathname);
  };
  await visit(entry);
  for (const css of styles) await visit(css);
  return { total: [...files.values()].reduce((sum, f) => sum + f.wire, 0), files: [...files].map(([path, f]) => ({ path, ...f })) };
}
