// Figures, their ratios and targets, printed as a table and written to docs/performance.md.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './server.ts';

export interface Figure {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The figure this one is compared with, measured in the same run. */
  ratioTo?: { name: string; value: number };
  target?: string;
  /** Whether the target is met; undefined when there is no target. */
  met?: boolean;
  /** A correctness figure (nothing lost): a smoke run fails when it is not met. */
  correctness?: boolean;
  note?: string;
}

const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en-US') : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const ratio = f.ratioTo ? `${(f.value / f.ratioTo.value).toFixed(2)}× ${f.ratioTo.name}` : '';
    const target = f.target ? `${f.target} ${f.met ? '✅' : '❌'}` : '';
    return `| ${f.suite} | ${f.name} | ${fmt(f.value)} ${f.unit} | ${ratio} | ${target} | ${f.note ?? ''} |`;
  });
  return ['| suite | figure | value | ratio | target | note |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

// Each database's figures have their own generated block: a run on one leaves the other's alone.
const MARKERS = {
  sqlite: { begin: '<!-- bench:begin -->', end: '<!-- bench:end -->' },
  postgres: { begin: '<!-- bench:postgres:begin -->', end: '<!-- bench:postgres:end -->' },
  soak: { begin: '<!-- bench:soak:begin -->', end: '<!-- bench:soak:end -->' },
} as const;

export type Section = keyof typeof MARKERS;

/** Where the hand-written history starts: the generated blocks belong above it, with the current figures. */
export const HISTORY_HEADING = '## Appendix: history';

/**
 * `doc` with the generated block of `which` replaced by `body`. A doc without that block gets it
 * at the end of the current figures, just before the history appendix (at the very end when the
 * doc has no appendix).
 */
export function replaceSection(doc: string, which: Section, body: string): string {
  const { begin, end } = MARKERS[which];
  const block = `${begin}\n${body}\n${end}`;
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end, start);
  if (start >= 0 && stop > start) return doc.slice(0, start) + block + doc.slice(stop + end.length);
  const history = doc.search(new RegExp(`^${HISTORY_HEADING}$`, 'm'));
  if (history >= 0) return `${doc.slice(0, history).trimEnd()}\n\n${block}\n\n${doc.slice(history)}`;
  return `${doc.trimEnd()}\n\n${block}\n`;
}

/** Replaces the generated block of `which` in docs/performance.md with this run. */
export function writePerformanceDoc(figures: Figure[], generator: string, which: Section = 'sqlite', setup = '') {
  const file = path.join(root, 'docs/performance.md');
  const body = [
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; load generator: ${generator}${setup ? `; ${setup}` : ''}.`,
    '',
    table(figures),
  ].join('\n');
  writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), which, body));
}
