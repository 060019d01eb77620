// SQLite reports SQLITE_BUSY (and SQLITE_BUSY_SNAPSHOT) when another connection, usually
// another process such as the CLI, holds or took the write lock. The failed transaction wrote
// nothing, so running it again is safe.
import { driverErrorCode } from '../driver-error.ts';

export function isBusyError(err: unknown): boolean {
  return driverErrorCode(err)?.startsWith('SQLITE_BUSY') ?? false;
}
