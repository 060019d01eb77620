// `gateway`: the operator CLI. Projects, keys and channels are created here, never through the
// Management API (as in Healthchecks). Commands parse, call a domain function and print.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { DomainError } from '../shared/errors.ts';
import * as projects from '../monitoring/projects/service.ts';
import * as channels from '../monitoring/integrations/service.ts';
import { printFields, printJson, printTable } from './output.ts';
import { createScriptToken } from '../campus/auth.ts';

// The Prisma client and the schema engine load only when a command needs the database,
// so `--help` and usage errors answer at once.
const loadMigrate = async () => (await import('../db/migrate.ts')).migrate;

let db: Db | undefined;
async function database(): Promise<Db> {
  if (!db) {
    const { databaseUrl } = loadConfig();
    const [migrate, { createDb }] = await Promise.all([loadMigrate(), import('../db/client.ts')]);
    // A fresh machine has no database yet: create and migrate it first.
    await migrate(databaseUrl);
    db = createDb(databaseUrl);
    await db.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
  }
  return db;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
};

const program = new Command('gateway')
  .description('Operate the Cron & Campus Gateway: projects, API keys, notification channels, migrations.\nThe database is DATABASE_URL (default file:./data/gateway.db).')
  .showHelpAfterError()
  .exitOverride();

const project = program.command('project').description('create, list, rename and delete projects');

project
  .command('create')
  .description('create a project with all its keys (shown once: only their hashes are stored)')
  .requiredOption('--name <name>', 'project name')
  .option('--json', 'print JSON: {"id","name","api_key","api_key_readonly","ping_key","badge_key"}')
  .action(async (opts: { name: string; json?: boolean }) => {
    const created = await projects.createProject(await database(), { name: opts.name });
    if (opts.json) return printJson(created);
    printFields(created);
    process.stdout.write('\nStore these keys now: only their hashes are kept, they cannot be shown again.\n');
  });

project
  .command('list')
  .description('list projects with their number of checks and channels')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const list = await projects.listProjects(await database());
    return opts.json ? printJson(list) : printTable(list);
  });

project
  .command('rename')
  .description('rename a project')
  .requiredOption('--project <id>', 'project id')
  .requiredOption('--name <name>', 'new name')
  .action(async (opts: { project: string; name: string }) => {
    await projects.renameProject(await database(), opts.project, opts.name);
    process.stdout.write('renamed\n');
  });

project
  .command('set-ping-log-limit')
  .description('how many pings the API lists per check (1-1000; Healthchecks: 100 free, 1000 paid)')
  .requiredOption('--project <id>', 'project id')
  .requiredOption('--limit <n>', 'pings per check', integer)
  .action(async (opts: { project: string; limit: number }) => {
    await projects.setPingLogLimit(await database(), opts.project, opts.limit);
    process.stdout.write(`ping log limit set to ${opts.limit}\n`);
  });

project
  .command('delete')
  .description('delete a project with all its checks, pings, flips and channels')
  .requiredOption('--project <id>', 'project id')
  .option('--yes', 'confirm the deletion')
  .action(async (opts: { project: string; yes?: boolean }) => {
    if (!opts.yes) throw new DomainError('VALIDATION', 'refusing to delete without --yes');
    await projects.deleteProject(await database(), opts.project);
    process.stdout.write('deleted\n');
  });

const key = program.command('key').description('rotate or revoke project keys');

key
  .command('rotate')
  .description('replace a key (read-write by default); the old key stops working at once')
  .requiredOption('--project <id>', 'project id')
  .option('--read-only', 'rotate the read-only API key')
  .option('--ping', 'rotate the ping key (slug ping URLs change)')
  .option('--badge', 'rotate the badge key (published badge URLs stop working)')
  .option('--json', 'print JSON: {"project","kind","key"}')
  .action(async (opts: { project: string; readOnly?: boolean; ping?: boolean; badge?: boolean; json?: boolean }) => {
    const chosen = [opts.readOnly && 'api_key_readonly', opts.ping && 'ping_key', opts.badge && 'badge_key'].filter(Boolean) as projects.KeyKind[];
    if (chosen.length > 1) throw new DomainError('VALIDATION', 'choose at most one of --read-only, --ping, --badge');
    const kind = chosen[0] ?? 'api_key';
    const newKey = await projects.rotateKey(await database(), opts.project, kind);
    if (opts.json) return printJson({ project: opts.project, kind, key: newKey });
    process.stdout.write(`${kind}: ${newKey}\n`);
  });

key
  .command('revoke')
  .description('remove the read-write (default) or read-only API key')
  .requiredOption('--project <id>', 'project id')
  .option('--read-only', 'revoke the read-only API key')
  .action(async (opts: { project: string; readOnly?: boolean }) => {
    await projects.revokeKey(await database(), opts.project, opts.readOnly ? 'api_key_readonly' : 'api_key');
    process.stdout.write('revoked\n');
  });

const channel = program.command('channel').description('create, list and delete notification channels');

channel
  .command('create')
  .description('create a notification channel in a project')
  .requiredOption('--project <id>', 'project id')
  .requiredOption('--kind <kind>', `one of ${channels.CHANNEL_KINDS.join(', ')}`)
  .requiredOption('--value <target>', 'email address, http(s) URL or E.164 phone number')
  .option('--name <name>', 'display name (names can identify channels in the API)')
  .option('--json', 'print JSON: {"id","name","kind"}')
  .action(async (opts: { project: string; kind: string; value: string; name?: string; json?: boolean }) => {
    const c = await channels.createChannel(await database(), opts.project, { kind: opts.kind, value: opts.value, name: opts.name });
    const out = { id: c.code, name: c.name, kind: c.kind };
    return opts.json ? printJson(out) : printFields(out);
  });

channel
  .command('list')
  .description("list a project's channels")
  .requiredOption('--project <id>', 'project id')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const list = (await channels.listProjectChannels(await database(), opts.project)).map((c) => ({ id: c.code, name: c.name, kind: c.kind, value: c.value }));
    return opts.json ? printJson(list) : printTable(list);
  });

channel
  .command('delete')
  .description('delete a channel (checks stop notifying it)')
  .requiredOption('--id <uuid>', 'channel id')
  .action(async (opts: { id: string }) => {
    await channels.deleteChannel(await database(), opts.id);
    process.stdout.write('deleted\n');
  });

const campusToken = program.command('campus-token').description('session tokens for scripts that call the campus API');

campusToken
  .command('create')
  .description('create a session token (Authorization: Token <token>); without --username, for a new service account')
  .requiredOption('--level <level>', 'account level: User, Student, Staff, Teacher, Administrator or Developer')
  .option('--username <name>', 'an existing person (their account level is set to --level)')
  .option('--json', 'print JSON: {"token","person_id"}')
  .action(async (opts: { level: string; username?: string; json?: boolean }) => {
    const created = await createScriptToken(await database(), opts.level, opts.username);
    return opts.json ? printJson(created) : printFields(created);
  });

program
  .command('migrate')
  .description('apply pending database migrations (the server also does this at start)')
  .action(async () => {
    const migrate = await loadMigrate();
    const applied = await migrate(loadConfig().databaseUrl);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  });

try {
  await program.parseAsync(process.argv);
  process.exitCode = 0;
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version exit 0; usage errors were already printed by commander.
    process.exitCode = err.exitCode;
  } else {
    const message = err instanceof DomainError ? err.message : err instanceof Error ? err.message : String(err);
    process.stderr.write(`gateway: ${message}\n`);
    process.exitCode = 1;
  }
} finally {
  await db?.$disconnect();
}
