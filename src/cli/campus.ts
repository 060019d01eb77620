// `gateway campus-token`: Slate session tokens for scripts that call the campus API.
import type { Command } from 'commander';
import { createScriptToken } from '../campus/auth.ts';
import type { CliContext } from './context.ts';

export function registerCampusCommands(program: Command, cli: CliContext) {
  const campusToken = program.command('campus-token').description('session tokens for scripts that call the campus API');

  campusToken
    .command('create')
    .description('create a session token (Authorization: Token <token>); without --username, for a new service account; creates the database on first use')
    .requiredOption('--level <level>', 'account level: User, Student, Staff, Teacher, Administrator or Developer')
    .option('--username <name>', 'an existing person (their account level is set to --level)')
    .option('--json', 'print JSON: {"token","person_id"}')
    .action(async (opts: { level: string; username?: string; json?: boolean }) => {
      const created = await createScriptToken(await cli.db('create'), opts.level, opts.username);
      return opts.json ? cli.out.json(created) : cli.out.fields(created);
    });
}
