// The driver's own error code, wherever it travels: through Prisma, in the driver adapter
// error's cause (the error's own `code` is then Prisma's, e.g. P2010); used directly (the hot
// paths' better-sqlite3 and pg), on the error itself.
export function driverErrorCode(err: unknown): string | null {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta?.driverAdapterError?.cause;
  if (typeof cause?.originalCode === 'string') return cause.originalCode;
  const own = (err as { code?: unknown } | null)?.code;
  return typeof own === 'string' ? own : null;
}
