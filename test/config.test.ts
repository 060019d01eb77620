// Settings parsed from the environment that no other test file covers.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('REDIS_CHANNEL_PREFIX', () => {
  it('defaults to gateway:events and takes a deployment’s own prefix', () => {
    expect(loadConfig({}).redisChannelPrefix).toBe('gateway:events');
    expect(loadConfig({ REDIS_CHANNEL_PREFIX: 'gateway:events:staging' }).redisChannelPrefix).toBe('gateway:events:staging');
  });

  it('refuses a prefix with spaces or pattern characters', () => {
    for (const bad of ['', 'two words', 'gateway:*', 'gateway:[a]']) {
      expect(() => loadConfig({ REDIS_CHANNEL_PREFIX: bad }), JSON.stringify(bad)).toThrow(ConfigError);
    }
    expect(() => loadConfig({ REDIS_CHANNEL_PREFIX: 'a b' })).toThrow('invalid REDIS_CHANNEL_PREFIX: expected a prefix without spaces or *?[] (e.g. gateway:events:staging)');
  });
});

describe('PG_POOL_SIZE', () => {
  it('defaults to 10 connections and refuses what is not a positive whole number', () => {
    expect(loadConfig({}).pgPoolSize).toBe(10);
    expect(loadConfig({ PG_POOL_SIZE: '25' }).pgPoolSize).toBe(25);
    for (const bad of ['0', '-1', '2.5', 'ten']) expect(() => loadConfig({ PG_POOL_SIZE: bad }), bad).toThrow('invalid PG_POOL_SIZE');
  });
});
