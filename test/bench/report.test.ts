// docs/performance.md holds one generated block per database: writing one leaves the other,
// and the hand-written text around both, as they were.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_HEADING, replaceSection, table } from '../../bench/lib/report.ts';

const doc = [
  '# Performance',
  'prose before',
  '<!-- bench:begin -->',
  'old SQLite table',
  '<!-- bench:end -->',
  '## PostgreSQL',
  'prose between',
  '<!-- bench:postgres:begin -->',
  'old PostgreSQL table',
  '<!-- bench:postgres:end -->',
  'prose after',
].join('\n');

describe('performance doc blocks', () => {
  it('a PostgreSQL run replaces only the PostgreSQL block', () => {
    const next = replaceSection(doc, 'postgres', 'new PostgreSQL table');
    expect(next).toBe(doc.replace('old PostgreSQL table', 'new PostgreSQL table'));
  });

  it('a SQLite run replaces only the SQLite block', () => {
    const next = replaceSection(doc, 'sqlite', 'new SQLite table');
    expect(next).toBe(doc.replace('old SQLite table', 'new SQLite table'));
  });

  it('a block the doc does not have yet is appended', () => {
    const only = '# Performance\n<!-- bench:begin -->\nSQLite\n<!-- bench:end -->\n';
    expect(replaceSection(only, 'postgres', 'PG')).toBe('# Performance\n<!-- bench:begin -->\nSQLite\n<!-- bench:end -->\n\n<!-- bench:postgres:begin -->\nPG\n<!-- bench:postgres:end -->\n');
  });

  it('a missing block goes at the end of the current figures, before the history appendix', () => {
    const withHistory = ['# Performance', '## Current figures', '<!-- bench:begin -->', 'SQLite', '<!-- bench:end -->', '', HISTORY_HEADING, '', 'old runs', ''].join('\n');
    expect(replaceSection(withHistory, 'postgres', 'PG')).toBe(
      ['# Performance', '## Current figures', '<!-- bench:begin -->', 'SQLite', '<!-- bench:end -->', '', '<!-- bench:postgres:begin -->', 'PG', '<!-- bench:postgres:end -->', '', HISTORY_HEADING, '', 'old runs', ''].join('\n'),
    );
  });

  it('tables show the ratio and whether each target is met', () => {
    const text = table([
      { suite: 'graphql', name: 'statements', value: 4, unit: 'statements', ratioTo: { name: 'SQLite', value: 4 }, target: 'the same as on SQLite', met: true },
      { suite: 'ping', name: 'pings', value: 4321.5, unit: 'pings/s', target: '≥ 5,000/s', met: false },
    ]);
    expect(text.split('\n')).toEqual([
      '| suite | figure | value | ratio | target | note |',
      '|---|---|---|---|---|---|',
      '| graphql | statements | 4 statements | 1.00× SQLite | the same as on SQLite ✅ |  |',
      '| ping | pings | 4,322 pings/s |  | ≥ 5,000/s ❌ |  |',
    ]);
  });
});

// The real file: `npm run bench` can only rewrite what its markers enclose, so they must stay in
// the current figures, once each, above the hand-written history.
describe('docs/performance.md', () => {
  const real = readFileSync(path.join(import.meta.dirname, '../../docs/performance.md'), 'utf8');
  const count = (s: string) => real.split(s).length - 1;
  const current = real.indexOf('\n## Current figures\n');
  const history = real.indexOf(`\n${HISTORY_HEADING}\n`);

  it('has the current figures before the history appendix', () => {
    expect(current).toBeGreaterThan(0);
    expect(history).toBeGreaterThan(current);
  });

  it.each(['sqlite', 'postgres'] as const)('holds the %s block once, in the current figures', (which) => {
    const [begin, end] = which === 'sqlite' ? ['<!-- bench:begin -->', '<!-- bench:end -->'] : ['<!-- bench:postgres:begin -->', '<!-- bench:postgres:end -->'];
    expect(count(begin)).toBe(1);
    expect(count(end)).toBe(1);
    expect(real.indexOf(begin)).toBeGreaterThan(current);
    expect(real.indexOf(end)).toBeGreaterThan(real.indexOf(begin));
    expect(real.indexOf(end)).toBeLessThan(history);
  });

  it.each(['sqlite', 'postgres'] as const)('a rewrite of the %s block changes nothing outside it', (which) => {
    const [begin, end] = which === 'sqlite' ? ['<!-- bench:begin -->', '<!-- bench:end -->'] : ['<!-- bench:postgres:begin -->', '<!-- bench:postgres:end -->'];
    const next = replaceSection(real, which, 'NEW TABLE');
    const before = real.slice(0, real.indexOf(begin));
    const after = real.slice(real.indexOf(end));
    expect(next).toBe(`${before}${begin}\nNEW TABLE\n${after}`);
  });
});
