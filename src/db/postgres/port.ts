// The database port on PostgreSQL: a deadlock (40P01) is the retryable error (the server rolled
// one transaction back so the other could go on); there is no busy error, writers run side by side.
import type { PrismaClient as Db } from '../../generated/prisma/client.ts';
import { standardSavepoints, type DatabasePort } from '../port.ts';

const DEADLOCK_DETECTED = '40P01';

export function isDeadlockError(err: unknown): boolean {
  if ((err as { code?: unknown } | null)?.code === DEADLOCK_DETECTED) return true;
  // Through Prisma, the driver's code travels in the adapter error's cause.
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta?.driverAdapterError?.cause;
  return cause?.originalCode === DEADLOCK_DETECTED;
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
