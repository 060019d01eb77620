// Healthchecks' badge image (templates/badge.svg, hc/lib/badges.py): widths come from a
// per-character table so the badge needs no font metrics at run time.
/** What a badge shows (badge.ts decides it from a check or a project's checks). */
export type BadgeStatus = 'up' | 'late' | 'down';

const WIDTHS: Record<string, number> = {
  a: 7, b: 7, c: 6, d: 7, e: 6, f: 4, g: 7, h: 7, i: 3, j: 3, k: 7, l: 3, m: 10, n: 7, o: 7, p: 7, q: 7,
  r: 4, s: 6, t: 5, u: 7, v: 7, w: 9, x: 6, y: 7, z: 7,
  0: 7, 1: 6, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 7, 9: 7,
  A: 8, B: 7, C: 8, D: 8, E: 7, F: 6, G: 9, H: 8, I: 3, J: 4, K: 7, L: 6, M: 10, N: 8, O: 9, P: 6, Q: 9,
  R: 7, S: 7, T: 7, U: 8, V: 8, W: 11, X: 7, Y: 7, Z: 7, '-': 4, _: 6,
};
export const COLORS: Record<BadgeStatus, string> = { up: '#4c1', late: '#fe7d37', down: '#e05d44' };

export function textWidth(s: string): number {
  let total = 0;
  for (const c of s) total += WIDTHS[c] ?? 7;
  return total;
}

/** Python's str(float): always a decimal point ("25.0", "8.5"). */
const pyFloat = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

export function renderBadgeSvg(label: string, status: BadgeStatus): string {
  const w1 = textWidth(label) + 10;
  const w2 = textWidth(status) + 10;
  const width = w1 + w2;
  const tag = escapeHtml(label);
  const tagX = pyFloat(w1 / 2);
  const statusX = pyFloat(w1 + w2 / 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="20">
  <linearGradient id="smooth" x2="0" y2="100%">
    <stop offset="0" stop-color="#bbb" stop-opacity=".1"/>
    <stop offset="1" stop-opacity=".1"/>
  </linearGradient>

  <mask id="round">
    <rect width="${width}" height="20" rx="3" fill="#fff"/>
  </mask>

  <g mask="url(#round)">
    <rect width="${w1}" height="20" fill="#555"/>
    <rect x="${w1}" width="${w2}" height="20" fill="${COLORS[status]}"/>
    <rect width="${width}" height="20" fill="url(#smooth)"/>
  </g>

  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">
    <text x="${tagX}" y="15" fill="#010101" fill-opacity=".3">${tag}</text>
    <text x="${tagX}" y="14">${tag}</text>
    <text x="${statusX}" y="15" fill="#010101" fill-opacity=".3">${status}</text>
    <text x="${statusX}" y="14">${status}</text>
  </g>
</svg>
`;
}
