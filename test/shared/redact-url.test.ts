// What reaches logs and error messages of a DATABASE_URL or REDIS_URL: never a password.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/shared/redact-url.ts';
import { providerOf } from '../../src/db/provider.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';

describe('redactUrl', () => {
  it('masks the password of a PostgreSQL or Redis URL and keeps the rest', () => {
    expect(redactUrl('postgresql://gateway:s3cr%40t@db.internal:5432/gateway?sslmode=require')).toBe('postgresql://gateway:***@db.internal:5432/gateway?sslmode=require');
    expect(redactUrl('postgres://u:p@h/d')).toBe('postgres://u:***@h/d');
    expect(redactUrl('redis://:hunter2@redis.internal:6379/0')).toBe('redis://:***@redis.internal:6379/0');
    expect(redactUrl('rediss://default:hunter2@redis.internal')).toBe('rediss://default:***@redis.internal');
  });

  it('masks passwords given as query parameters', () => {
    expect(redactUrl('postgresql://gateway@db/gateway?password=hunter2&sslpassword=k3y&application_name=gw')).toBe(
      'postgresql://gateway@db/gateway?password=***&sslpassword=***&application_name=gw',
    );
  });

  it('returns URLs without credentials exactly as written', () => {
    for (const url of ['file:./data/gateway.db', 'file::memory:', 'postgresql://postgres@127.0.0.1:5432/postgres', 'redis://127.0.0.1:6379']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('masks credentials in a string that is not a valid URL', () => {
    const out = redactUrl('postgresql://gateway:hunter2@db:notaport/gateway');
    expect(out).not.toContain('hunter2');
    expect(out).toBe('postgresql://gateway:***@db:notaport/gateway');
  });
});

describe('a DATABASE_URL refused', () => {
  it('is named in the error without its password', () => {
    expect(() => providerOf('mysql://gateway:hunter2@db.internal/gateway')).toThrow('unsupported DATABASE_URL "mysql://gateway:***@db.internal/gateway"');
    expect(() => sqliteFilePath('postgresql://gateway:hunter2@db.internal/gateway')).toThrow('not an SQLite DATABASE_URL: "postgresql://gateway:***@db.internal/gateway"');
  });
});
