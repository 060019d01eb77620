// `gateway import-healthchecks`: a Healthchecks instance (a dumpdata file or its database) made
// this server's with every URL, key and sign-in kept (src/drop-in/healthchecks/). Parses, calls
// the importer, prints. Exit status 1 when a project was refused (the others are imported).
import type { Command } from 'commander';
import type { CliContext } from './context.ts';

interface Options {
  file?: string;
  database?: string;
  secretKey?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** The first line of standard input (`--secret-key -`: a secret is better not an argument, `ps` shows those). */
async function firstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const { createInterface } = await import('node:readline');
  const input = createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
  let first = '';
  for await (const line of input) {
    first = line;
    break;
  }
  input.close();
  return first;
}

export function registerImportHealthchecksCommand(program: Command, cli: CliContext) {
  program
    .command('import-healthchecks')
    .description(
      'import a Healthchecks instance: projects, checks (same UUIDs, ping keys, badge keys), channels, pings, flips, notifications, users and memberships. ' +
        'Run again to bring in what changed; nothing is deleted. Creates the database on first use (not with --dry-run)',
    )
    .option('--file <dump.json>', 'the output of `./manage.py dumpdata auth.user accounts api --natural-foreign` on the old instance')
    .option('--database <url>', "the instance's database instead: postgresql://… or the path of its SQLite file (sqlite:///path works too)")
    .option('--secret-key <key>', "the instance's SECRET_KEY (\"-\": read it from standard input): its hashed API keys keep working, and its badge URLs keep their signatures")
    .option('--dry-run', 'print what would be created and updated; write nothing')
    .option('--json', 'print JSON: {"dry_run","counts":{kind:{"created","updated","unchanged"}},"projects":[…],"refused","notes","warnings"}')
    .action(async (opts: Options, command: Command) => {
      if (Boolean(opts.file) === Boolean(opts.database)) cli.usage(command, 'give --file <dump.json> or --database <url>');
      const [{ readInstance }, { importHealthchecks }, { reportJson, reportText }, { SourceError }] = await Promise.all([
        import('../drop-in/healthchecks/source.ts'),
        import('../drop-in/healthchecks/import.ts'),
        import('../drop-in/healthchecks/report.ts'),
        import('../drop-in/healthchecks/model.ts'),
      ]);
      let secretKey = opts.secretKey ?? null;
      if (secretKey === '-') secretKey = await firstLine(cli.io.stdin);
      if (secretKey !== null && !secretKey) cli.usage(command, '--secret-key is empty');
      // The source first: a mistyped path must not leave a new empty database behind.
      let instance;
      try {
        instance = await readInstance(opts.file ? { file: opts.file } : { database: opts.database! });
      } catch (err) {
        if (err instanceof SourceError) throw new Error(`import refused: ${err.message}`);
        throw err;
      }
      // A dry run writes nothing, not even a new database: it needs one that exists.
      const db = await cli.db(opts.dryRun ? 'existing' : 'create');
      const result = await importHealthchecks(db, instance, { dryRun: Boolean(opts.dryRun), secretKey, now: new Date() });
      if (opts.json) cli.out.json(reportJson(result));
      else for (const line of reportText(result)) cli.out.line(line);
      const refused = result.projects.filter((p) => p.outcome === 'refused').length;
      if (refused) {
        cli.exitCode = 1;
        if (!opts.json) cli.fail(`${refused} ${refused === 1 ? 'project was' : 'projects were'} refused (see above); the others ${opts.dryRun ? 'would be' : 'were'} imported`);
      }
    });
}
