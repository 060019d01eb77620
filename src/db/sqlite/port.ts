// The database port on SQLite: busy errors are the retryable ones (one writer at a time, so there
// are no deadlocks to report).
import type { PrismaClient as Db } from '../../generated/prisma/client.ts';
import { standardSavepoints, type DatabasePort } from '../port.ts';
import { isBusyError } from './busy.ts';

export function sqlitePort(db: Db): DatabasePort {
  return {
    isBusy: isBusyError,
    isDeadlock: () => false,
    isRetryable: isBusyError,
    savepoints: standardSavepoints,
    healthCheck: async () => {
      await db.$queryRawUnsafe('SELECT 1');
    },
  };
}
