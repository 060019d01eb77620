// Commands that read or change what exists refuse a missing, unmigrated or out-of-date database
// with a sentence saying how to make it, instead of creating an empty one (where `project list`
// would answer "(none)" about a mistyped path). Only the first-run commands create it
// (CliContext.database). The state itself is read by src/db/state.ts.
import { databaseLocation, type DatabaseState } from '../db/state.ts';

export { databaseState } from '../db/state.ts';

/** A database the command will not use; the message says why and what to run. */
export class DatabaseUnavailable extends Error {}

/** Why a command that needs an existing, migrated database refuses this one; null: it may go on. */
export function refusal(databaseUrl: string, state: DatabaseState): string | null {
  const at = databaseLocation(databaseUrl);
  switch (state.kind) {
    case 'ready':
      return null;
    case 'missing':
      return state.migrateCreates
        ? `no database at ${at}: create it with \`npx gateway migrate\` (the server also creates it at start), or set DATABASE_URL to the database you meant`
        : `the database ${at} does not exist: create it (e.g. createdb), then run \`npx gateway migrate\``;
    case 'unmigrated':
      return `the database at ${at} has none of the gateway's tables: run \`npx gateway migrate\` to create them, or set DATABASE_URL to the database you meant`;
    case 'pending':
      return `the database at ${at} needs ${state.names.length === 1 ? 'a migration' : `${state.names.length} migrations`} (${state.names.join(', ')}): run \`npx gateway migrate\` (the server also migrates at start)`;
  }
}
