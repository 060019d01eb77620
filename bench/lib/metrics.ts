// Reads a Prometheus text scrape into a lookup: sum of the samples of `name` whose labels
// include every given label.
export type Scrape = (name: string, labels?: Record<string, string>) => number;

export async function scrape(url: string): Promise<Scrape> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const samples = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.match(/^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/))
    .filter((m): m is RegExpMatchArray => m !== null);
  return (name, labels = {}) => {
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    return samples.filter((m) => m[1] === name && wanted.every((w) => (m[2] ?? '').includes(w))).reduce((s, m) => s + Number(m[3]), 0);
  };
}

/** An upper bound of the q-quantile from cumulative histogram buckets (le -> count). */
export function quantileFromBuckets(s: Scrape, name: string, q: number, bounds: number[]): number {
  const total = s(`${name}_count`);
  if (total === 0) return 0;
  for (const le of bounds) if (s(`${name}_bucket`, { le: String(le) }) >= q * total) return le;
  return Infinity;
}
