// SQLite reports SQLITE_BUSY (and SQLITE_BUSY_SNAPSHOT) when another connection, usually
// another process such as the CLI, committed a write that conflicts with an open transaction.
// The transaction holds nothing yet, so running it again is safe.
export function isBusyError(err: unknown): boolean {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } })?.meta?.driverAdapterError?.cause;
  if (typeof cause?.originalCode === 'string') return cause.originalCode.startsWith('SQLITE_BUSY');
  return err instanceof Error && /SQLITE_BUSY/.test(err.message);
}
