// `gateway`: the operator CLI, as a function of its arguments and streams (bin/gateway.mjs runs
// it on the process's; tests on their own). Commands parse, call a domain function and print.
// Exit status: 0 done, 1 refused or failed, 2 a usage error (unknown command or option, a
// missing or malformed argument), as gh, manage.py and the Prisma CLI. With --json anywhere
// before `--`, results are JSON on standard output and errors {"error": "…"} on standard error.
import { Command, CommanderError } from 'commander';
import { gatewayVersion } from '../paths.ts';
import { CliContext, type CliIo } from './context.ts';
import { registerProjectCommands } from './projects.ts';
import { registerChannelCommands } from './channels.ts';
import { registerAccountCommands } from './accounts.ts';
import { registerCampusCommands } from './campus.ts';
import { registerDataCommands } from './data.ts';
import { registerConfigCommands } from './config-check.ts';
import { registerImportHealthchecksCommand } from './import-healthchecks.ts';
import { registerTelegramCommands } from './telegram.ts';

export type { CliIo } from './context.ts';

const VERSION = gatewayVersion();

/** --json among the options (after `--` every word is an argument). */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

function buildProgram(cli: CliContext): Command {
  const { io, json } = cli;
  const program = new Command('gateway')
    .description('Operate the Cron & Campus Gateway: projects, API keys, notification channels, accounts and members, migrations, configuration.\nThe database is DATABASE_URL (default file:./data/gateway.db); `gateway config check` shows every setting.')
    .version(VERSION, '-V, --version', 'print the version')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // Under --json standard error carries JSON only: commander's texts go through outputError.
      writeErr: (s) => (json ? undefined : io.stderr.write(s)),
      outputError: (s, write) => (json ? cli.fail(s.trim().replace(/^error: /, '')) : write(s)),
    })
    .showHelpAfterError(!json)
    .exitOverride();
  registerProjectCommands(program, cli);
  registerChannelCommands(program, cli);
  registerCampusCommands(program, cli);
  registerAccountCommands(program, cli);
  registerDataCommands(program, cli);
  registerConfigCommands(program, cli);
  registerImportHealthchecksCommand(program, cli);
  registerTelegramCommands(program, cli);
  return program;
}

/** Runs one command line (`args` without node and the script); resolves to the exit status. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const cli = new CliContext(io, wantsJson(args));
  try {
    await buildProgram(cli).parseAsync([...args], { from: 'user' });
    return cli.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end with status 0; every other commander stop is a usage error,
      // already printed (commander's help after a missing command is printed too, but not under --json).
      if (err.exitCode === 0) return 0;
      if (err.code === 'commander.help' && cli.json) cli.fail('a command is needed: gateway --help lists them');
      return 2;
    }
    // Domain refusals, configuration problems, missing databases and files: one line, no stack.
    cli.fail(err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    await cli.close();
  }
}
