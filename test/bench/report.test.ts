// docs/performance.md holds one generated block per database: writing one leaves the other,
// and the hand-written text around both, as they were.
import { describe, expect, it } from 'vitest';
import { replaceSection, table } from '../../bench/lib/report.ts';

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
