// A Check row as the SQLite hot paths (ping ingest, monitor passes) read it with better-sqlite3,
// turned into what Prisma returns: the model's knowledge, kept beside the stores that need it.
const CHECK_DATES = ['lastPing', 'lastStart', 'alertAfter', 'createdAt'] as const;
const CHECK_BOOLEANS = ['manualResume', 'filterSubject', 'filterBody', 'filterHttpBody', 'filterDefaultFail'] as const;

/** A `SELECT * FROM "Check"` row as Prisma returns it (Dates and booleans). */
export function checkFromRow<C>(row: Record<string, unknown> | undefined): C | undefined {
  if (!row) return undefined;
  for (const c of CHECK_DATES) row[c] = row[c] === null ? null : new Date(row[c] as number);
  for (const c of CHECK_BOOLEANS) row[c] = row[c] === 1;
  return row as C;
}
