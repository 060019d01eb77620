// `gateway migrate`, `gateway export`, `gateway import`, `gateway backup` and `gateway restore`:
// the database as a whole.
import type { Command } from 'commander';
import { validationError } from '../shared/errors.ts';
import type { CliContext } from './context.ts';
import { existsSync } from 'node:fs';
import { fileError, isSystemError, openForReading, openForWriting } from './files.ts';

export function registerDataCommands(program: Command, cli: CliContext) {
  program
    .command('migrate')
    .description('create the database if needed and apply pending migrations (the server also does this at start)')
    .option('--json', 'print JSON: {"applied":[names]}')
    .action(async (opts: { json?: boolean }) => {
      const { migrate } = await import('../db/migrate.ts');
      const applied = await migrate(cli.config().databaseUrl);
      if (opts.json) return cli.out.json({ applied });
      cli.out.line(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    });

  program
    .command('export')
    .description('write every row of the database as a dump (JSON Lines) for `gateway import`, e.g. to move from SQLite to PostgreSQL')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--json', 'print the summary as JSON, {"rows","out"}: on standard output with --out, else on standard error (standard output carries the dump)')
    .action(async (opts: { out?: string; json?: boolean }) => {
      const [{ exportLines }, { pipeline }] = await Promise.all([import('../db/transfer.ts'), import('node:stream/promises')]);
      const db = await cli.db();
      const out = opts.out ? await openForWriting(opts.out) : cli.io.stdout;
      // The first line is the dump's header, not a row.
      let rows = -1;
      async function* lines() {
        for await (const line of exportLines(db)) {
          rows++;
          yield `${line}\n`;
        }
      }
      try {
        // Standard output stays open: it is the process's, not this command's.
        await pipeline(lines(), out, { end: Boolean(opts.out) });
      } catch (err) {
        throw opts.out && isSystemError(err) ? fileError(err, opts.out, true) : err;
      }
      const summary = { rows, out: opts.out ?? null };
      if (opts.json && opts.out) cli.out.json(summary);
      else cli.io.stderr.write(opts.json ? `${JSON.stringify(summary)}\n` : `exported ${rows} rows\n`);
    });

  program
    .command('import')
    .description('load a dump made by `gateway export` into the (new, empty) database DATABASE_URL names, creating and migrating it first')
    .option('--in <file>', 'read this file instead of standard input')
    .option('--json', 'print JSON: {"rows","tables":{model: rows}}')
    .action(async (opts: { in?: string; json?: boolean }) => {
      const [{ importLines, DumpError }, { createInterface }] = await Promise.all([import('../db/transfer.ts'), import('node:readline')]);
      // The file first: a mistyped path must not leave a new empty database behind.
      const source = opts.in ? await openForReading(opts.in) : cli.io.stdin;
      // Import's documented target is a new database: it is created and migrated here.
      const opened = await cli.database('create');
      const input = createInterface({ input: source, crlfDelay: Infinity });
      // readline buffers lines only for an iterator that exists: take it now, before the import's
      // first await (its emptiness check), or a short file is read and lost meanwhile.
      const lines = input[Symbol.asyncIterator]();
      let counts: Record<string, number>;
      try {
        counts = await importLines(opened.db, opened.provider, { [Symbol.asyncIterator]: () => lines });
      } catch (err) {
        if (err instanceof DumpError) throw validationError(`import refused: ${err.message}`);
        throw opts.in && isSystemError(err) ? fileError(err, opts.in, false) : err;
      }
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      if (opts.json) return cli.out.json({ rows: total, tables: counts });
      cli.out.line(`imported ${total} rows: ${Object.entries(counts).map(([m, n]) => `${m} ${n}`).join(', ') || 'none'}`);
    });

  program
    .command('backup')
    .description('copy the SQLite database to a new file while the server serves (SQLite\'s online backup); PostgreSQL: use pg_dump (docs/operations.md)')
    .requiredOption('--out <file>', 'the new file (never overwritten)')
    .option('--json', 'print JSON: {"file","bytes","migrations","lastMigration"}')
    .action(async (opts: { out: string; json?: boolean }) => {
      const summary = await withSqliteFile(cli, 'backup', (file, { backupSqlite }) => backupSqlite(file, opts.out));
      if (opts.json) return cli.out.json(summary);
      cli.out.line(`backed up to ${summary.file}: ${summary.bytes} bytes, ${summary.migrations} migrations (last ${summary.lastMigration ?? 'none'})`);
    });

  const restore = program
    .command('restore')
    .description('replace the SQLite database with a backup made by `gateway backup` (stop the server first), then apply any newer migrations')
    .requiredOption('--from <file>', 'the backup')
    .option('--yes', 'replace the database DATABASE_URL names (required when it exists)')
    .option('--json', 'print JSON: {"file","bytes","migrations","lastMigration","applied"}');
  restore.action(async (opts: { from: string; yes?: boolean; json?: boolean }) => {
    if (!existsSync(opts.from)) throw validationError(`${opts.from}: no such file`);
    const summary = await withSqliteFile(cli, 'restore', (file, { restoreSqlite }) => {
      if (existsSync(file) && !opts.yes) cli.usage(restore, `${file} exists: restoring replaces all of it; stop the server, then run again with --yes`);
      return restoreSqlite(opts.from, file);
    });
    // A backup from an older version catches up here, as the server would at its start.
    const { migrate } = await import('../db/migrate.ts');
    const applied = await migrate(cli.config().databaseUrl);
    if (opts.json) return cli.out.json({ ...summary, applied });
    cli.out.line(`restored ${summary.file} from ${opts.from}: ${summary.migrations} migrations${applied.length ? `, then applied ${applied.join(', ')}` : ''}`);
  });
}

/** Runs a SQLite-only file operation, refusing PostgreSQL (its tools do this) and turning a refusal into one clear line. */
async function withSqliteFile<T>(cli: CliContext, verb: string, run: (file: string, m: typeof import('../db/sqlite/backup.ts')) => Promise<T>): Promise<T> {
  const { databaseUrl } = cli.config();
  const backup = await import('../db/sqlite/backup.ts');
  try {
    return await run(backup.embeddedDatabaseFile(databaseUrl, verb), backup);
  } catch (err) {
    if (err instanceof backup.BackupRefused) throw validationError(`${verb} refused: ${err.message}`);
    throw err;
  }
}
