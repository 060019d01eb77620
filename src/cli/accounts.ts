// `gateway account` and `gateway member`: accounts and project memberships from the operator's
// shell, e.g. the first owner of a project before anyone can sign in to invite others. Like the
// other commands: parse, call the identity room's functions, print. The CLI acts as CLI_ACTOR.
import type { Command } from 'commander';
import type { Db } from '../db/client.ts';
import { ACCOUNT_LEVELS } from '../campus/kinds.ts';
import { personByUsername } from '../campus/lookup.ts';
import { MonitoringEvents } from '../events/bus.ts';
import { accountByLogin, createAccount, listAccounts, maySignIn, requireAccount, setPassword } from '../identity/accounts.ts';
import { addMember, listMembers, projectsOf, removeMember, roleIn, type MembershipDeps } from '../identity/memberships.ts';
import { CLI_ACTOR, type Role } from '../identity/roles.ts';
import { endAllSessions } from '../identity/sessions.ts';
import { systemClock } from '../shared/clock.ts';
import { conflict, notFound, validationError } from '../shared/errors.ts';
import type { CliContext } from './context.ts';
import { PROJECT_OPTION, findProject } from './projects.ts';

/** The first line of standard input, without its line ending (a password is never an argument: `ps` shows those). */
async function passwordFromStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const { createInterface } = await import('node:readline');
  const input = createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
  let first = '';
  for await (const line of input) {
    first = line;
    break;
  }
  input.close();
  if (!first) throw validationError('no password on standard input (give it as the first line)');
  return first;
}

/**
 * The CLI has no event bus to the server instances (as `channel test`): accessChanged goes to a
 * local bus nobody listens to, so a server's open subscriptions of a removed member (or of ended
 * sessions) are not ended by these commands; new requests see the change at once.
 */
const membershipDeps = (db: Db): MembershipDeps => ({ db, events: new MonitoringEvents(), clock: systemClock });

/** A person to remove from a project: an account, or someone who may no longer sign in (disabled). */
async function memberPerson(db: Db, login: string) {
  const person = (await accountByLogin(db, login)) ?? (await personByUsername(db, login.trim()));
  if (!person) throw notFound(`no account with username or email ${login}`);
  return person;
}

export function registerAccountCommands(program: Command, cli: CliContext) {
  const account = program.command('account').description('create accounts, set passwords, list accounts');

  account
    .command('create')
    .description('create an account (a campus person who may sign in) with its email address; creates the database on first use')
    .requiredOption('--username <name>', '2 to 30 letters, digits, dots, dashes or underscores')
    .requiredOption('--email <address>', 'email address (sign-in, resets, invitations)')
    .option('--level <level>', `account level: ${ACCOUNT_LEVELS.filter((l) => maySignIn(l)).join(', ')}`, 'User')
    .option('--first-name <name>', 'first name (default: the username)')
    .option('--last-name <name>', 'last name')
    // Required, as `docker login --password-stdin`: the command says where the secret comes from.
    .requiredOption('--password-stdin', 'read the password from the first line of standard input')
    .option('--json', 'print JSON: {"id","username","email","level"}')
    .action(async (opts: { username: string; email: string; level: string; firstName?: string; lastName?: string; passwordStdin: true; json?: boolean }) => {
      const password = await passwordFromStdin(cli.io.stdin);
      // The documented first run: the first account may come before the server ever started.
      const created = await createAccount(await cli.db('create'), { username: opts.username, email: opts.email, password, level: opts.level, firstName: opts.firstName, lastName: opts.lastName });
      return opts.json ? cli.out.json(created) : cli.out.fields(created);
    });

  account
    .command('set-password')
    .description('set an account\'s password and end all its sessions (browser and token)')
    .requiredOption('--account <login>', 'username or email address')
    // Required, as `docker login --password-stdin`: the command says where the secret comes from.
    .requiredOption('--password-stdin', 'read the password from the first line of standard input')
    .option('--json', 'print JSON: {"id","username","sessions_ended"}')
    .action(async (opts: { account: string; passwordStdin: true; json?: boolean }) => {
      const password = await passwordFromStdin(cli.io.stdin);
      const db = await cli.db();
      const person = await requireAccount(db, opts.account);
      await setPassword(db, person.ID, password);
      // A changed password is usually a suspected leak: nobody stays signed in with the old one.
      const out = { id: person.ID, username: person.Username!, sessions_ended: await endAllSessions(db, person.ID) };
      if (opts.json) return cli.out.json(out);
      cli.out.line(`password set for ${out.username}; ${out.sessions_ended} session${out.sessions_ended === 1 ? '' : 's'} ended`);
    });

  account
    .command('list')
    .description('list accounts with their email address and their projects')
    .option('--json', 'print JSON: [{"id","username","email","level","projects":[{"id","name","role"}]}]')
    .action(async (opts: { json?: boolean }) => {
      const db = await cli.db();
      const list = await Promise.all(
        (await listAccounts(db)).map(async (a) => ({ ...a, projects: (await projectsOf(db, a.id)).map((m) => ({ id: m.project.id, name: m.project.name, role: m.role })) })),
      );
      if (opts.json) return cli.out.json(list);
      cli.out.table(list.map((a) => ({ ...a, email: a.email ?? '', projects: a.projects.map((m) => `${m.name} (${m.role})`).join(', ') })));
    });

  const member = program.command('member').description('add, remove and list the members of a project');

  member
    .command('add')
    .description('add an account to a project, or change its role there (a new owner makes the old one a manager)')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--account <login>', 'username or email address')
    .requiredOption('--role <role>', 'owner, manager, regular or readonly')
    .option('--json', 'print JSON: {"project","person_id","username","role","previous_role"}')
    .action(async (opts: { project: string; account: string; role: string; json?: boolean }) => {
      const db = await cli.db();
      const project = await findProject(db, opts.project);
      const person = await requireAccount(db, opts.account);
      const username = person.Username!;
      const before = await listMembers(db, project.id);
      const previous = before.find((m) => m.personId === person.ID)?.role ?? null;
      // addMember writes the audit entry (member.added or member.role_changed) with the change.
      const role = await addMember(membershipDeps(db), project.id, person.ID, opts.role, CLI_ACTOR);
      const oldOwner = role === 'owner' ? before.find((m) => m.role === 'owner' && m.personId !== person.ID) : undefined;
      const out = { project: project.id, person_id: person.ID, username, role, previous_role: previous };
      if (opts.json) return cli.out.json(out);
      const change = previous === null ? `added as ${role}` : previous === role ? `already ${role}` : `${previous} → ${role}`;
      cli.out.line(`${username} in ${project.name}: ${change}${oldOwner ? ` (${oldOwner.username} is now a manager)` : ''}`);
    });

  member
    .command('remove')
    .description('remove a member from a project (not the owner, unless --force)')
    .requiredOption(...PROJECT_OPTION)
    .requiredOption('--account <login>', 'username or email address')
    .option('--force', 'remove the owner too, leaving the project without one (e.g. the owner has left)')
    .option('--json', 'print JSON: {"project","person_id","username","role"}')
    .action(async (opts: { project: string; account: string; force?: boolean; json?: boolean }) => {
      const db = await cli.db();
      const project = await findProject(db, opts.project);
      const person = await memberPerson(db, opts.account);
      const username = person.Username ?? opts.account;
      const role: Role | null = await roleIn(db, project.id, person.ID);
      if (!role) throw notFound(`${username} is not a member of ${project.name}`);
      if (role === 'owner' && !opts.force) {
        throw conflict(`${username} owns ${project.name}: make another member owner first (gateway member add --role owner), or pass --force to leave the project without an owner`);
      }
      const deps = membershipDeps(db);
      // The domain never removes an owner: --force first makes them a manager, then removes
      // that (two audit entries: member.role_changed, member.removed; both written by the domain).
      if (role === 'owner') await addMember(deps, project.id, person.ID, 'manager', CLI_ACTOR);
      await removeMember(deps, { projectId: project.id, readOnly: false, role: 'owner', actor: CLI_ACTOR }, person.ID);
      const out = { project: project.id, person_id: person.ID, username, role };
      if (opts.json) return cli.out.json(out);
      cli.out.line(`removed ${username} (${role}) from ${project.name}${role === 'owner' ? '; the project has no owner now: give it one with gateway member add --role owner' : ''}`);
    });

  member
    .command('list')
    .description("list a project's members, owner first")
    .requiredOption(...PROJECT_OPTION)
    .option('--json', 'print JSON: [{"person_id","username","name","role","since"}]')
    .action(async (opts: { project: string; json?: boolean }) => {
      const db = await cli.db();
      const project = await findProject(db, opts.project);
      const list = (await listMembers(db, project.id)).map((m) => ({ person_id: m.personId, username: m.username, name: m.name, role: m.role, since: m.since.toISOString() }));
      return opts.json ? cli.out.json(list) : cli.out.table(list);
    });
}
