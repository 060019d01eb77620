// SQLite reports SQLITE_BUSY (and SQLITE_BUSY_SNAPSHOT) when another connection, usually
// another process such as the CLI, holds or took the write lock. The failed transaction wrote
// nothing, so running it again is safe.
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
  // Through Prisma, the driver's code travels in the adapter error's cause.
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } })?.meta?.driverAdapterError?.cause;
  return typeof cause?.originalCode === 'string' && cause.originalCode.startsWith('SQLITE_BUSY');
}
