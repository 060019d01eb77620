// `gateway`: the operator CLI. Projects, keys and channels are created here, never through the
// Management API (as in Healthchecks). Commands parse, call a domain function and print.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import type { CreatedDb, Db } from '../db/client.ts';
import { DomainError } from '../shared/errors.ts';
import * as projects from '../monitoring/projects/service.ts';
import * as channels from '../monitoring/integrations/service.ts';
import { printFields, printJson, printTable } from './output.ts';
import { createScriptToken } from '../campus/auth.ts';
import { setNagPeriod, testChannel } from '../monitoring/notifications/service.ts';
import { setStatusPage } from '../monitoring/status-pages/service.ts';

// The Prisma client and the schema engine load only when a command needs the database,
// so `--help` and usage errors answer at once.
const loadMigrate = async () => (await import('../db/migrate.ts')).migrate;

let db: Db | undefined;
let opened: CreatedDb | undefined;
async function openDatabase(): Promise<CreatedDb> {
  if (!opened) {
    const { databaseUrl, pgPoolSize } = loadConfig();
    const [migrate, { openDb, waitForOtherWriters }] = await Promise.all([loadMigrate(), import('../db/client.ts')]);
    // A fresh machine has no database yet: create and migrate it first.
    await migrate(databaseUrl);
    opened = openDb(databaseUrl, { poolSize: pgPoolSize });
    db = opened.db;
    await waitForOtherWriters(opened);
  }
  return opened;
}
async function database(): Promise<Db> {
  return (await openDatabase()).db;
}

const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
};
// An option parser: commander reports its InvalidArgumentError with the option's name. (Thrown
// from an action instead, it would end the command with exit status 1 and no message.) Not
// null for "off": commander turns a parser's null into ''.
const periodOrOff = (value: string): number | 'off' => {
  if (value === 'off') return 'off';
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of seconds, or "off"');
  return Number(value);
};

const WEBHOOK_HELP = `
Webhook spec (Healthchecks'): --url-down/--url-up with optional --method-*, --body-* and
repeatable --header-* "Name: value". Placeholders: $CODE $STATUS $NOW $NAME $NAME_JSON $SLUG
$TAGS $TAG1... $JSON $BODY $BODY_JSON $EXITSTATUS. A bare --value URL posts a JSON document.`;

interface ChannelOpts {
  value?: string;
  name?: string;
  notifyDown?: boolean;
  notifyUp?: boolean;
  urlDown?: string;
  methodDown?: string;
  bodyDown?: string;
  headerDown?: string[];
  urlUp?: string;
  methodUp?: string;
  bodyUp?: string;
  headerUp?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The webhook and notify options; `update` adds --notify-down/--notify-up to turn them back on. */
function addChannelOptions(command: Command, update = false): Command {
  for (const side of ['down', 'up'] as const) {
    command
      .option(`--url-${side} <url>`, `webhook: URL requested when a check goes ${side}${update ? ' ("" sends nothing for it)' : ''}`)
      .option(`--method-${side} <method>`, `webhook: GET, POST or PUT for ${side}`)
      .option(`--body-${side} <body>`, `webhook: request body for ${side}`)
      .option(`--header-${side} <header>`, `webhook: "Name: value" header for ${side} (repeatable${update ? '; replaces that side\'s headers' : ''})`, collect);
  }
  // Defined before its --no- twin, a positive option leaves the default undefined (commander).
  if (update) command.option('--notify-down', 'send "down" alerts here again').option('--notify-up', 'send "up" alerts here again');
  return command
    .option('--no-notify-down', 'do not send "down" alerts here')
    .option('--no-notify-up', 'do not send "up" alerts here');
}

function headers(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const colon = h.indexOf(':');
    if (colon < 1) throw new DomainError('VALIDATION', `header must be "Name: value": ${h}`);
    out[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  }
  return out;
}

function channelInput(o: ChannelOpts): channels.ChannelPatch {
  const side = (url?: string, method?: string, body?: string, header?: string[]) =>
    url === undefined && method === undefined && body === undefined && header === undefined
      ? undefined
      : { url, method, body, headers: header === undefined ? undefined : headers(header) };
  const down = side(o.urlDown, o.methodDown, o.bodyDown, o.headerDown);
  const up = side(o.urlUp, o.methodUp, o.bodyUp, o.headerUp);
  return {
    value: o.value,
    name: o.name,
    webhook: down || up ? { down, up } : undefined,
    // create has only the --no-* options, which default to true: only an explicit "no" is a
    // change there. update also has the positive ones, and so no default.
    notifyDown: o.notifyDown,
    notifyUp: o.notifyUp,
  };
}

async function cliNotifier() {
  const opened = await openDatabase();
  const [{ composeCliNotifier }, { closeTransports }] = await Promise.all([
    import('../composition.ts'),
    import('../monitoring/integrations/kinds/index.ts'),
  ]);
  const config = loadConfig();
  const notifier = composeCliNotifier(opened, config);
  return { notifier, close: () => closeTransports(config.notify) };
}

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
  .option('--value <target>', 'email address, http(s) URL or E.164 phone number (webhooks: or the --*-down/--*-up options)')
  .option('--name <name>', 'display name (names can identify channels in the API)')
  .option('--json', 'print JSON: {"id","name","kind"}')
  .addHelpText('after', WEBHOOK_HELP);
addChannelOptions(channel.commands.at(-1)!).action(async (opts: ChannelOpts & { project: string; kind: string; json?: boolean }) => {
  const c = await channels.createChannel(await database(), opts.project, { kind: opts.kind, ...channelInput(opts) });
  const out = { id: c.code, name: c.name, kind: c.kind };
  return opts.json ? printJson(out) : printFields(out);
});

channel
  .command('update')
  .description('change a channel: options left out keep their value')
  .requiredOption('--id <uuid>', 'channel id')
  .option('--value <target>', 'new email address, URL or phone number')
  .option('--name <name>', 'new display name')
  .option('--disable', 'notify this channel of nothing (it is kept)')
  .option('--enable', 'notify this channel again')
  .option('--json', 'print JSON: {"id","name","kind","disabled"}')
  .addHelpText('after', WEBHOOK_HELP);
addChannelOptions(channel.commands.at(-1)!, true).action(async (opts: ChannelOpts & { id: string; disable?: boolean; enable?: boolean; json?: boolean }) => {
  if (opts.disable && opts.enable) throw new DomainError('VALIDATION', 'choose one of --disable, --enable');
  const disabled = opts.disable ? true : opts.enable ? false : undefined;
  const db = await database();
  // Options left out keep their value: the given fields change the stored spec, side by side.
  const c = await channels.updateChannel(db, null, opts.id, { ...channelInput(opts), disabled }, { mergeSpec: true });
  const out = { id: c.code, name: c.name, kind: c.kind, disabled: c.disabled };
  return opts.json ? printJson(out) : printFields(out);
});

channel
  .command('test')
  .description('send a test notification now and print how it went (exit status 1 when it failed)')
  .requiredOption('--id <uuid>', 'channel id')
  .option('--json', 'print JSON: {"id","ok","error","duration_ms"}')
  .action(async (opts: { id: string; json?: boolean }) => {
    const { notifier, close } = await cliNotifier();
    // Pooled SMTP connections would keep the process alive: close them after the test.
    const result = await testChannel(await database(), notifier, null, opts.id, new Date()).finally(close);
    const out = { id: result.id, ok: result.state === 'sent', error: result.error, duration_ms: result.durationMs };
    if (opts.json) printJson(out);
    else process.stdout.write(out.ok ? `sent (${out.duration_ms} ms)\n` : `failed: ${out.error}\n`);
    if (!out.ok) process.exitCode = 1;
  });

channel
  .command('list')
  .description("list a project's channels with the outcome of their last notification")
  .requiredOption('--project <id>', 'project id')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const list = (await channels.listProjectChannels(await database(), opts.project)).map((c) => {
      const last = c.notifications[0];
      return {
        id: c.code,
        name: c.name,
        kind: c.kind,
        value: c.value,
        disabled: c.disabled,
        last_notification: last ? last.state : 'none',
        last_attempt: last?.lastAttemptAt ? last.lastAttemptAt.toISOString() : '',
        last_error: last?.lastError ?? '',
      };
    });
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

project
  .command('set-nag')
  .description('repeat alerts: while any check is down, remind its channels every period')
  .requiredOption('--project <id>', 'project id')
  .requiredOption('--period <seconds>', 'seconds between reminders (60 to 2592000), or "off"', periodOrOff)
  .action(async (opts: { project: string; period: number | 'off' }) => {
    const period = opts.period === 'off' ? null : opts.period;
    await setNagPeriod(await database(), opts.project, period);
    process.stdout.write(period === null ? 'repeat alerts off\n' : `repeat alerts every ${period} s\n`);
  });

project
  .command('set-status-page')
  .description('publish the project\'s public status page at /status/<slug> (names, statuses, last pings; no key needed), or withdraw it')
  .requiredOption('--project <id>', 'project id')
  .option('--slug <slug>', 'the page\'s address: lower-case letters, digits and hyphens')
  .option('--tags <tags>', 'list only checks having any of these comma-separated tags')
  .option('--off', 'withdraw the page')
  .action(async (opts: { project: string; slug?: string; tags?: string; off?: boolean }, command: Command) => {
    if (Boolean(opts.off) === (opts.slug !== undefined)) command.error('error: give --slug <slug> or --off');
    if (opts.off && opts.tags !== undefined) command.error('error: --tags goes with --slug');
    const settings = await setStatusPage(await database(), opts.project, opts.off ? null : { slug: opts.slug!, tags: opts.tags?.split(',') });
    if (!settings) return void process.stdout.write('status page off\n');
    const tags = settings.tags.length ? ` (checks tagged ${settings.tags.join(', ')})` : '';
    process.stdout.write(`status page at ${loadConfig().siteRoot}/status/${settings.slug}${tags}\n`);
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

program
  .command('export')
  .description('write every row of the database as a dump (JSON Lines) for `gateway import`, e.g. to move from SQLite to PostgreSQL')
  .option('--out <file>', 'write to this file instead of standard output')
  .action(async (opts: { out?: string }) => {
    const [{ exportLines }, { createWriteStream }, { EventEmitter }] = await Promise.all([import('../db/transfer.ts'), import('node:fs'), import('node:events')]);
    const out = opts.out ? createWriteStream(opts.out) : process.stdout;
    let rows = -1;
    for await (const line of exportLines(await database())) {
      rows++;
      if (!out.write(line + '\n')) await EventEmitter.once(out, 'drain');
    }
    if (opts.out) await new Promise<void>((resolve, reject) => (out as import('node:fs').WriteStream).end((err?: Error | null) => (err ? reject(err) : resolve())));
    process.stderr.write(`exported ${rows} rows\n`);
  });

program
  .command('import')
  .description('load a dump made by `gateway export` into the (new, empty) database DATABASE_URL names')
  .option('--in <file>', 'read this file instead of standard input')
  .action(async (opts: { in?: string }) => {
    const [{ importLines, DumpError }, { createReadStream }, { createInterface }] = await Promise.all([import('../db/transfer.ts'), import('node:fs'), import('node:readline')]);
    const opened = await openDatabase();
    const input = createInterface({ input: opts.in ? createReadStream(opts.in) : process.stdin, crlfDelay: Infinity });
    // readline buffers lines only for an iterator that exists: take it now, before the import's
    // first await (its emptiness check), or a short file is read and lost meanwhile.
    const lines = input[Symbol.asyncIterator]();
    try {
      const counts = await importLines(opened.db, opened.provider, { [Symbol.asyncIterator]: () => lines });
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      process.stdout.write(`imported ${total} rows: ${Object.entries(counts).map(([m, n]) => `${m} ${n}`).join(', ') || 'none'}\n`);
    } catch (err) {
      throw err instanceof DumpError ? new DomainError('VALIDATION', `import refused: ${err.message}`) : err;
    }
  });

try {
  await program.parseAsync(process.argv);
  // A command may have set its own status (channel test: 1 when the test failed).
  process.exitCode ??= 0;
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
