// `gateway channel`: notification channels (Healthchecks' integrations), created, changed,
// tested, listed and deleted from the operator's shell.
import type { Command } from 'commander';
import * as channels from '../monitoring/integrations/service.ts';
import { testChannel } from '../monitoring/notifications/service.ts';
import { validationError } from '../shared/errors.ts';
import { HC_KIND_CODES, offeredChannelKinds } from '../monitoring/integrations/kinds/index.ts';
import type { CliContext } from './context.ts';
import { collect } from './options.ts';
import { PROJECT_OPTION, findProject } from './projects.ts';

const WEBHOOK_HELP = `
Webhook spec (Healthchecks'): --url-down/--url-up with optional --method-*, --body-* and
repeatable --header-* "Name: value". Placeholders: $CODE $STATUS $NOW $NAME $NAME_JSON $SLUG
$TAGS $TAG1... $JSON $BODY $BODY_JSON $EXITSTATUS. A bare --value URL posts a JSON document.

Values as Healthchecks stores them: pagerduty (pd) the integration key; opsgenie
'{"key": "…", "region": "us"}' (or "eu"); victorops, pagertree, spike the integration's URL;
ntfy '{"url": "https://ntfy.sh", "topic": "…", "priority": 5, "priority_up": 3, "token": ""}'
(priorities 1-5, 0 sends nothing for that status); pushover (po) 'user_key|prio|prio_up'
(priorities -2 to 2, -3 sends nothing; needs PUSHOVER_API_TOKEN); pushbullet the access token;
gotify '{"url": "https://gotify.example.org", "token": "…", "priority": 5, "priority_up": 5}'
(priorities 1-9, 0 sends nothing for that status).`;

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

/** The webhook and notify options; `update` adds --notify-down/--notify-up to turn them back on. */
function addChannelOptions(command: Command, update = false): Command {
  for (const side of ['down', 'up'] as const) {
    command
      .option(`--url-${side} <url>`, `webhook: URL requested when a check goes ${side}${update ? ' ("" sends nothing for it)' : ''}`)
      .option(`--method-${side} <method>`, `webhook: GET, POST or PUT for ${side}`)
      .option(`--body-${side} <body>`, `webhook: request body for ${side}`)
      .option(`--header-${side} <header>`, `webhook: "Name: value" header for ${side} (repeatable${update ? "; replaces that side's headers" : ''})`, collect);
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
    if (colon < 1) throw validationError(`header must be "Name: value": ${h}`);
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

export function registerChannelCommands(program: Command, cli: CliContext) {
  const channel = program.command('channel').description('create, list, test and delete notification channels');

  const create = channel
    .command('create')
    .description('create a notification channel in a project')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--kind <kind>', `one of ${channels.CHANNEL_KINDS.join(', ')} (or Healthchecks' code: ${HC_KIND_CODES.join(', ')})`)
    .option('--value <target>', "email address, http(s) URL, E.164 phone number or key, or the kind's configuration as Healthchecks stores it (webhooks: or the --*-down/--*-up options)")
    .option('--name <name>', 'display name (names can identify channels in the API)')
    .option('--json', 'print JSON: {"id","name","kind"}')
    .addHelpText('after', WEBHOOK_HELP);
  addChannelOptions(create).action(async (opts: ChannelOpts & { project: string; kind: string; json?: boolean }) => {
    channels.refuseKindNotOffered(opts.kind, offeredChannelKinds(cli.config().notify));
    const db = await cli.db();
    const project = await findProject(db, opts.project);
    const c = await channels.createChannel(db, project.id, { kind: opts.kind, ...channelInput(opts) });
    const out = { id: c.code, name: c.name, kind: c.kind };
    return opts.json ? cli.out.json(out) : cli.out.fields(out);
  });

  const update = channel
    .command('update')
    .description('change a channel: options left out keep their value')
    .requiredOption('--id <uuid>', 'channel id')
    .option('--value <target>', 'new email address, URL or phone number')
    .option('--name <name>', 'new display name')
    .option('--disable', 'notify this channel of nothing (it is kept)')
    .option('--enable', 'notify this channel again')
    .option('--json', 'print JSON: {"id","name","kind","disabled"}')
    .addHelpText('after', WEBHOOK_HELP);
  addChannelOptions(update, true).action(async (opts: ChannelOpts & { id: string; disable?: boolean; enable?: boolean; json?: boolean }, command: Command) => {
    if (opts.disable && opts.enable) cli.usage(command, 'choose one of --disable, --enable');
    const disabled = opts.disable ? true : opts.enable ? false : undefined;
    // Options left out keep their value: the given fields change the stored spec, side by side.
    const c = await channels.updateChannel(await cli.db(), null, opts.id, { ...channelInput(opts), disabled }, { mergeSpec: true });
    const out = { id: c.code, name: c.name, kind: c.kind, disabled: c.disabled };
    return opts.json ? cli.out.json(out) : cli.out.fields(out);
  });

  channel
    .command('test')
    .description('send a test notification now and print how it went (exit status 1 when it failed)')
    .requiredOption('--id <uuid>', 'channel id')
    .option('--json', 'print JSON: {"id","ok","error","duration_ms"}')
    .action(async (opts: { id: string; json?: boolean }) => {
      const opened = await cli.database();
      const [{ composeCliNotifier }, { closeTransports }] = await Promise.all([import('../composition.ts'), import('../monitoring/integrations/kinds/index.ts')]);
      const config = cli.config();
      const notifier = composeCliNotifier(opened, config);
      // Pooled SMTP connections would keep the process alive: close them after the test.
      const result = await testChannel(opened.db, notifier, null, opts.id, new Date()).finally(() => closeTransports(config.notify));
      const out = { id: result.id, ok: result.state === 'sent', error: result.error, duration_ms: result.durationMs };
      if (opts.json) cli.out.json(out);
      else cli.out.line(out.ok ? `sent (${out.duration_ms} ms)` : `failed: ${out.error}`);
      if (!out.ok) cli.exitCode = 1;
    });

  channel
    .command('list')
    .description("list a project's channels with the outcome of their last notification")
    .requiredOption(...PROJECT_OPTION)
    .option('--json', 'print JSON: [{"id","name","kind","value","disabled","last_notification","last_attempt","last_error"}]')
    .action(async (opts: { project: string; json?: boolean }) => {
      const db = await cli.db();
      const project = await findProject(db, opts.project);
      const list = (await channels.listProjectChannels(db, project.id)).map((c) => {
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
      return opts.json ? cli.out.json(list) : cli.out.table(list);
    });

  channel
    .command('delete')
    .description('delete a channel (checks stop notifying it)')
    .requiredOption('--id <uuid>', 'channel id')
    .option('--json', 'print JSON: {"id","deleted"}')
    .action(async (opts: { id: string; json?: boolean }) => {
      await channels.deleteChannel(await cli.db(), opts.id);
      return opts.json ? cli.out.json({ id: opts.id, deleted: true }) : cli.out.line('deleted');
    });
}
