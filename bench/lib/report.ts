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

const BEGIN = '<!-- bench:begin -->';
const END = '<!-- bench:end -->';

/** Replaces the generated section of docs/performance.md with this run. */
export function writePerformanceDoc(figures: Figure[], generator: string) {
  const file = path.join(root, 'docs/performance.md');
  const doc = readFileSync(file, 'utf8');
  const section = [
    BEGIN,
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; load generator: ${generator}.`,
    '',
    table(figures),
    END,
  ].join('\n');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  const next = start >= 0 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
