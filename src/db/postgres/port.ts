// The database port on PostgreSQL: a deadlock (40P01) is the retryable error (the server rolled
// one transaction back so the other could go on); there is no busy error, writers run side by side.
import type { PrismaClient as Db } from '../../generated/prisma/client.ts';
import { standardSavepoints, type DatabasePort } from '../port.ts';
import { driverErrorCode } from '../driver-error.ts';

const DEADLOCK_DETECTED = '40P01';

export function isDeadlockError(err: unknown): boolean {
  return driverErrorCode(err) === DEADLOCK_DETECTED;
}

export function postgresPort(db: Db): DatabasePort {
  return {
    isBusy: () => false,
    isDeadlock: isDeadlockError,
    isRetryable: isDeadlockError,
    savepoints: standardSavepoints,
    healthCheck: async () => {
      await db.$queryRawUnsafe('SELECT 1');
    },
  };
}
