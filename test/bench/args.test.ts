// `npm run bench` arguments: SQLite by default; `--db postgres` with its server and Redis.
import { describe, expect, it } from 'vitest';
import { BenchArgsError, DEFAULT_DB_URL, DEFAULT_REDIS_URL, parseBenchArgs } from '../../bench/lib/args.ts';

describe('bench arguments', () => {
  it('default to a full SQLite run', () => {
    expect(parseBenchArgs([], {})).toEqual({ smoke: false, only: undefined, db: 'sqlite', dbUrl: DEFAULT_DB_URL, redisUrl: DEFAULT_REDIS_URL, soak: undefined });
  });

  it('read --smoke and --only as before', () => {
    expect(parseBenchArgs(['--smoke', '--only=ping,graphql'], {})).toMatchObject({ smoke: true, only: ['ping', 'graphql'], db: 'sqlite' });
  });

  it('take --db postgres with --db-url and --redis-url, spaced or with =', () => {
    const spaced = parseBenchArgs(['--db', 'postgres', '--db-url', 'postgresql://u@db:5433/x', '--redis-url', 'redis://r:6380'], {});
    const joined = parseBenchArgs(['--db=postgres', '--db-url=postgresql://u@db:5433/x', '--redis-url=redis://r:6380'], {});
    expect(spaced).toEqual({ smoke: false, only: undefined, db: 'postgres', dbUrl: 'postgresql://u@db:5433/x', redisUrl: 'redis://r:6380', soak: undefined });
    expect(joined).toEqual(spaced);
  });

  it('take Redis from REDIS_URL when --redis-url is not given', () => {
    expect(parseBenchArgs(['--db', 'postgres'], { REDIS_URL: 'redis://elsewhere:6379' }).redisUrl).toBe('redis://elsewhere:6379');
  });

  it('take --soak minutes, fractions too, spaced or with =', () => {
    expect(parseBenchArgs(['--soak', '30'], {})).toMatchObject({ soak: 30, smoke: false, only: undefined, db: 'sqlite' });
    expect(parseBenchArgs(['--soak=0.5'], {}).soak).toBe(0.5);
    expect(parseBenchArgs(['--soak', '1', '--db', 'sqlite'], {}).soak).toBe(1);
  });

  it.each([
    [['--soak'], /--soak needs a value/],
    [['--soak', '0'], /--soak takes a positive number of minutes, not "0"/],
    [['--soak', '-1'], /positive number of minutes, not "-1"/],
    [['--soak=ten'], /positive number of minutes, not "ten"/],
    [['--soak', 'Infinity'], /positive number of minutes/],
    [['--soak', '1', '--smoke'], /--soak runs alone/],
    [['--soak', '1', '--only=ping'], /--soak runs alone/],
    [['--soak', '1', '--db', 'postgres'], /--soak runs on SQLite only/],
    [['--db', 'mysql'], /--db must be sqlite or postgres/],
    [['--db'], /--db needs a value/],
    [['--db-url', 'postgresql://u@h/x'], /--db-url goes with --db postgres/],
    [['--db', 'postgres', '--db-url', 'file:./x.db'], /postgresql:\/\/ URL/],
    [['--db', 'postgres', '--redis-url', 'http://r'], /redis:\/\/ URL/],
    [['--fast'], /unknown argument "--fast"/],
  ])('refuse %j', (argv, message) => {
    expect(() => parseBenchArgs(argv, {})).toThrow(BenchArgsError);
    expect(() => parseBenchArgs(argv, {})).toThrow(message);
  });
});
