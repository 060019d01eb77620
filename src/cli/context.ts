// What a CLI run works with: its streams and environment (the process's, or a test's), the
// configuration read once, the database opened once, and how results and errors are printed
// (--json anywhere on the line makes them JSON).
import type { Command } from 'commander';
import { ConfigError, inspectConfig, type Config } from '../config/index.ts';
import type { CreatedDb, Db } from '../db/client.ts';
import { Output, type TextSink } from './output.ts';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: TextSink;
}

/**
 * How a command treats a database that is not there: `existing` refuses it (reading, or
 * changing what exists); `create` creates and migrates it, for the documented first-run
 * commands (project create, account create, campus-token create, import, migrate).
 */
export type DatabaseMode = 'existing' | 'create';

export class CliContext {
  readonly out: Output;
  /** The status the run ends with when nothing fails (channel test: 1 when the test failed). */
  exitCode = 0;
  private loadedConfig?: Config;
  private opened?: CreatedDb;

  constructor(
    readonly io: CliIo,
    /** --json was given: results and errors are printed as JSON. */
    readonly json: boolean,
  ) {
    this.out = new Output(io.stdout);
  }

  /** The configuration; its warnings (misspelt variables) go to standard error once. */
  config(): Config {
    if (!this.loadedConfig) {
      const report = inspectConfig(this.io.env);
      // Before the problems too: a misspelt name is often why a default was refused.
      for (const w of report.warnings) this.warn(w.message);
      if (!report.config) throw new ConfigError(report.problems);
      this.loadedConfig = report.config;
    }
    return this.loadedConfig;
  }

  warn(message: string) {
    this.io.stderr.write(this.json ? `${JSON.stringify({ warning: message })}\n` : `gateway: warning: ${message}\n`);
  }

  /** Prints a failure on standard error: `gateway: …`, or {"error": "…"} under --json. */
  fail(message: string) {
    this.io.stderr.write(this.json ? `${JSON.stringify({ error: message })}\n` : `gateway: ${message}\n`);
  }

  /** Ends the command as a usage error (exit status 2), like commander's own. */
  usage(command: Command, message: string): never {
    command.error(`error: ${message}`, { exitCode: 2, code: 'gateway.usage' });
  }

  // The Prisma client and the schema engine load only when a command needs the database,
  // so `--help` and usage errors answer at once.
  async database(mode: DatabaseMode = 'existing'): Promise<CreatedDb> {
    if (!this.opened) {
      const { databaseUrl, pgPoolSize } = this.config();
      const [{ migrate }, { openDb, waitForOtherWriters }, { databaseState, refusal, DatabaseUnavailable }] = await Promise.all([
        import('../db/migrate.ts'),
        import('../db/client.ts'),
        import('./database.ts'),
      ]);
      if (mode === 'create') {
        // The documented first run: `gateway project create` on a fresh machine makes the database.
        await migrate(databaseUrl);
      } else {
        const refused = refusal(databaseUrl, await databaseState(databaseUrl));
        if (refused) throw new DatabaseUnavailable(refused);
      }
      const opened = openDb(databaseUrl, { poolSize: pgPoolSize });
      this.opened = opened;
      await waitForOtherWriters(opened);
    }
    return this.opened;
  }

  async db(mode: DatabaseMode = 'existing'): Promise<Db> {
    return (await this.database(mode)).db;
  }

  async close() {
    await this.opened?.db.$disconnect();
    await this.opened?.pool?.end().catch(() => {});
  }
}
