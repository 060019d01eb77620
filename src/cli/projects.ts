// `gateway project` and `gateway key`: projects and their keys. Projects are created here (as in
// Healthchecks, the Management API cannot create keys). Wherever a command takes --project, the
// project is named by its id or by its name.
import type { Command } from 'commander';
import type { Db } from '../db/client.ts';
import * as projects from '../monitoring/projects/service.ts';
import { setNagPeriod } from '../monitoring/notifications/service.ts';
import { setStatusPage } from '../monitoring/status-pages/service.ts';
import { conflict, notFound } from '../shared/errors.ts';
import type { CliContext } from './context.ts';
import { integer, periodOrOff } from './options.ts';

export const PROJECT_OPTION = ['--project <id or name>', "the project's id, or its name"] as const;

/**
 * The project `ref` names: its id, else its exact name, else its name in another case. A name
 * several projects share is refused, listing them: the operator picks the id.
 */
export async function findProject(db: Db, ref: string): Promise<{ id: string; name: string }> {
  const select = { id: true, name: true } as const;
  const byId = await db.project.findUnique({ where: { id: ref }, select });
  if (byId) return byId;
  let named = await db.project.findMany({ where: { name: ref }, select, orderBy: { createdAt: 'asc' } });
  if (named.length === 0) {
    const all = await db.project.findMany({ select, orderBy: { createdAt: 'asc' } });
    named = all.filter((p) => p.name.toLowerCase() === ref.toLowerCase());
  }
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw conflict(`${named.length} projects are named "${ref}": ${named.map((p) => `${p.id} (${p.name})`).join(', ')}; give the id of the one you mean`);
  }
  throw notFound(`project not found: ${ref}`);
}

export function registerProjectCommands(program: Command, cli: CliContext) {
  const project = program.command('project').description('create, list, rename and delete projects');
  const resolve = async (ref: string) => {
    const db = await cli.db();
    return { db, project: await findProject(db, ref) };
  };

  project
    .command('create')
    .description('create a project with all its keys (shown once: only their hashes are stored); creates the database on first use')
    .requiredOption('--name <name>', 'project name')
    .option('--json', 'print JSON: {"id","name","api_key","api_key_readonly","ping_key","badge_key"}')
    .action(async (opts: { name: string; json?: boolean }) => {
      const created = await projects.createProject(await cli.db('create'), { name: opts.name });
      if (opts.json) return cli.out.json(created);
      cli.out.fields(created);
      cli.out.line('\nStore these keys now: only their hashes are kept, they cannot be shown again.');
    });

  project
    .command('list')
    .description('list projects with their number of checks and channels')
    .option('--json', 'print JSON: [{"id","name","checks","channels","ping_log_limit","has_api_key","has_api_key_readonly"}]')
    .action(async (opts: { json?: boolean }) => {
      const list = await projects.listProjects(await cli.db());
      return opts.json ? cli.out.json(list) : cli.out.table(list);
    });

  project
    .command('rename')
    .description('rename a project')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--name <name>', 'new name')
    .option('--json', 'print JSON: {"id","name"}')
    .action(async (opts: { project: string; name: string; json?: boolean }) => {
      const { db, project: p } = await resolve(opts.project);
      await projects.renameProject(db, p.id, opts.name);
      return opts.json ? cli.out.json({ id: p.id, name: opts.name.trim() }) : cli.out.line('renamed');
    });

  project
    .command('set-ping-log-limit')
    .description('how many pings the API lists per check (1-1000; Healthchecks: 100 free, 1000 paid)')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--limit <n>', 'pings per check', integer)
    .option('--json', 'print JSON: {"id","ping_log_limit"}')
    .action(async (opts: { project: string; limit: number; json?: boolean }) => {
      const { db, project: p } = await resolve(opts.project);
      await projects.setPingLogLimit(db, p.id, opts.limit);
      return opts.json ? cli.out.json({ id: p.id, ping_log_limit: opts.limit }) : cli.out.line(`ping log limit set to ${opts.limit}`);
    });

  project
    .command('delete')
    .description('delete a project with all its checks, pings, flips and channels')
    .requiredOption(...PROJECT_OPTION)
    .option('--yes', 'confirm the deletion')
    .option('--json', 'print JSON: {"id","name","deleted"}')
    .action(async (opts: { project: string; yes?: boolean; json?: boolean }, command: Command) => {
      if (!opts.yes) cli.usage(command, 'refusing to delete without --yes');
      const { db, project: p } = await resolve(opts.project);
      await projects.deleteProject(db, p.id);
      return opts.json ? cli.out.json({ id: p.id, name: p.name, deleted: true }) : cli.out.line('deleted');
    });

  project
    .command('set-nag')
    .description('repeat alerts: while any check is down, remind its channels every period')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--period <seconds>', 'seconds between reminders (60 to 2592000), or "off"', periodOrOff)
    .option('--json', 'print JSON: {"project","nag_period"} (null: off)')
    .action(async (opts: { project: string; period: number | 'off'; json?: boolean }) => {
      const period = opts.period === 'off' ? null : opts.period;
      const { db, project: p } = await resolve(opts.project);
      await setNagPeriod(db, p.id, period);
      if (opts.json) return cli.out.json({ project: p.id, nag_period: period });
      cli.out.line(period === null ? 'repeat alerts off' : `repeat alerts every ${period} s`);
    });

  project
    .command('set-status-page')
    .description("publish the project's public status page at /status/<slug> (names, statuses, last pings; no key needed), or withdraw it")
    .requiredOption(...PROJECT_OPTION)
    .option('--slug <slug>', "the page's address: lower-case letters, digits and hyphens")
    .option('--tags <tags>', 'list only checks having any of these comma-separated tags')
    .option('--off', 'withdraw the page')
    .option('--json', 'print JSON: {"project","slug","tags","url"} (slug and url null when withdrawn)')
    .action(async (opts: { project: string; slug?: string; tags?: string; off?: boolean; json?: boolean }, command: Command) => {
      if (Boolean(opts.off) === (opts.slug !== undefined)) cli.usage(command, 'give --slug <slug> or --off');
      if (opts.off && opts.tags !== undefined) cli.usage(command, '--tags goes with --slug');
      const { db, project: p } = await resolve(opts.project);
      const settings = await setStatusPage(db, p.id, opts.off ? null : { slug: opts.slug!, tags: opts.tags?.split(',') });
      const url = settings && `${cli.config().siteRoot}/status/${settings.slug}`;
      if (opts.json) return cli.out.json({ project: p.id, slug: settings?.slug ?? null, tags: settings?.tags ?? [], url });
      if (!settings) return cli.out.line('status page off');
      const tags = settings.tags.length ? ` (checks tagged ${settings.tags.join(', ')})` : '';
      cli.out.line(`status page at ${url}${tags}`);
    });

  const key = program.command('key').description('rotate or revoke project keys');

  key
    .command('rotate')
    .description('replace a key (read-write by default); the old key stops working at once')
    .requiredOption(...PROJECT_OPTION)
    .option('--read-only', 'rotate the read-only API key')
    .option('--ping', 'rotate the ping key (slug ping URLs change)')
    .option('--badge', 'rotate the badge key (published badge URLs stop working)')
    .option('--json', 'print JSON: {"project","kind","key"}')
    .action(async (opts: { project: string; readOnly?: boolean; ping?: boolean; badge?: boolean; json?: boolean }, command: Command) => {
      const chosen = [opts.readOnly && 'api_key_readonly', opts.ping && 'ping_key', opts.badge && 'badge_key'].filter(Boolean) as projects.KeyKind[];
      if (chosen.length > 1) cli.usage(command, 'choose at most one of --read-only, --ping, --badge');
      const kind = chosen[0] ?? 'api_key';
      const { db, project: p } = await resolve(opts.project);
      const newKey = await projects.rotateKey(db, p.id, kind);
      if (opts.json) return cli.out.json({ project: p.id, kind, key: newKey });
      cli.out.line(`${kind}: ${newKey}`);
    });

  key
    .command('revoke')
    .description('remove the read-write (default) or read-only API key')
    .requiredOption(...PROJECT_OPTION)
    .option('--read-only', 'revoke the read-only API key')
    .option('--json', 'print JSON: {"project","kind","revoked"}')
    .action(async (opts: { project: string; readOnly?: boolean; json?: boolean }) => {
      const kind = opts.readOnly ? 'api_key_readonly' : 'api_key';
      const { db, project: p } = await resolve(opts.project);
      await projects.revokeKey(db, p.id, kind);
      return opts.json ? cli.out.json({ project: p.id, kind, revoked: true }) : cli.out.line('revoked');
    });
}
