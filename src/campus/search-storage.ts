// The record search for the database DATABASE_URL names, chosen where the app is assembled.
import type { Db } from '../db/client.ts';
import type { Provider } from '../db/provider.ts';
import type { RecordSearch } from './search.ts';
import { sqliteRecordSearch } from './sqlite-search.ts';
import { postgresRecordSearch } from './postgres-search.ts';

export const recordSearchFor = (provider: Provider, db: Db): RecordSearch =>
  provider === 'postgresql' ? postgresRecordSearch(db) : sqliteRecordSearch(db);
