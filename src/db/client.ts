import { PrismaClient } from '../generated/prisma/client.ts';
import { createAdapterFactory } from './adapter.ts';

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return new PrismaClient({ adapter: createAdapterFactory(databaseUrl) });
}
