// Which database DATABASE_URL names. SQLite (a file: URL) is the embedded default; PostgreSQL
// serves several instances (docs/operations.md). One data model, a generated client per provider.
import { redactUrl } from '../shared/redact-url.ts';

export type Provider = 'sqlite' | 'postgresql';

export function providerOf(databaseUrl: string): Provider {
  if (databaseUrl.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgresql';
  throw new Error(`unsupported DATABASE_URL "${redactUrl(databaseUrl)}": expected file:<path> (SQLite) or postgresql://user@host:5432/db`);
}
