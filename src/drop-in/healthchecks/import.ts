// `gateway import-healthchecks`: a Healthchecks instance (model.ts, read by dumpdata.ts or a
// database source) made this server's, one transaction per project (project.ts), accounts
// created with the first project that needs them (accounts.ts). A project that conflicts with
// what is here is refused whole, with the reason; the others are imported. A dry run runs the
// very same transactions and rolls each back, so what it reports is what a run would do.
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { DomainError } from '../../shared/errors.ts';
import { ensureAccount, passwordWarning, type AccountSource } from './accounts.ts';
import type { HcFlip, HcInstance, HcPing } from './model.ts';
import { importProject, projectLabel, type ProjectBundle } from './project.ts';
import { Tally, type Counts } from './tally.ts';

type Tx = Prisma.TransactionClient;

export interface ImportOptions {
  /** Roll every transaction back: report what would be done, write nothing. */
  dryRun: boolean;
  /** The instance's SECRET_KEY: verifies its hashed API keys and keeps its badge signatures. */
  secretKey: string | null;
  now: Date;
}

export interface ProjectResult {
  id: string;
  name: string;
  outcome: 'created' | 'updated' | 'unchanged' | 'refused';
  /** Why it was refused. */
  reason?: string;
  counts: Counts;
}

export interface ImportResult {
  dryRun: boolean;
  projects: ProjectResult[];
  /** Accounts of users in no project (imported after the projects). */
  accounts: Counts;
  /** Everything written (or, dry, that would be), refused projects left out. */
  counts: Counts;
  /** What the operator must act on (a key left out, a password this server cannot check). */
  warnings: string[];
  /** What was done differently from Healthchecks, and why (channels kept disabled). */
  notes: string[];
  /** Rows of models the importer leaves alone, by model. */
  ignored: Record<string, number>;
}

class Rollback extends Error {}

/** Long imports (thousands of pings) must not hit Prisma's 5-second interactive transaction limit. */
const TRANSACTION = { timeout: 30 * 60_000, maxWait: 60_000 };

function group<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const list = out.get(key(item)) ?? [];
    list.push(item);
    out.set(key(item), list);
  }
  return out;
}

export async function importHealthchecks(db: Db, instance: HcInstance, options: ImportOptions): Promise<ImportResult> {
  const warnings = new Set<string>();
  const notes = new Set<string>();
  const warn = (w: string) => warnings.add(w);

  const users = new Map(instance.users.map((u) => [u.username, u]));
  const accountSources = new Map<string, AccountSource>();
  for (const u of instance.users) accountSources.set(u.username, { user: u, profile: null, credentials: [] });
  for (const p of instance.profiles) {
    const source = accountSources.get(p.user);
    if (source) source.profile = p;
  }
  for (const c of instance.credentials) accountSources.get(c.user)?.credentials.push(c);
  for (const u of instance.users) {
    const w = passwordWarning(u);
    if (w) warn(w);
  }

  // Rows whose parent the source does not have (a partial dump) are left out, said once per kind.
  const projectPks = new Set(instance.projects.map((p) => p.pk));
  const checkPks = new Set(instance.checks.filter((c) => projectPks.has(c.project)).map((c) => c.pk));
  const orphans = (what: string, n: number) => n && warn(`${n} ${what} belong to rows the source does not hold: not imported`);
  orphans('checks', instance.checks.length - checkPks.size);
  const channels = instance.channels.filter((c) => projectPks.has(c.project));
  orphans('channels', instance.channels.length - channels.length);
  const pings = instance.pings.filter((p) => checkPks.has(p.check));
  orphans('pings', instance.pings.length - pings.length);
  const flips = instance.flips.filter((f) => checkPks.has(f.check));
  orphans('flips', instance.flips.length - flips.length);
  const channelPks = new Set(channels.map((c) => c.pk));
  const notifications = instance.notifications.filter((n) => channelPks.has(n.channel) && (n.check === null || checkPks.has(n.check)));
  orphans('notifications', instance.notifications.length - notifications.length);
  const members = instance.members.filter((m) => projectPks.has(m.project) && users.has(m.user));
  orphans('memberships', instance.members.length - members.length);

  const checksOf = group(instance.checks.filter((c) => checkPks.has(c.pk)), (c) => c.project);
  const channelsOf = group(channels, (c) => c.project);
  const membersOf = group(members, (m) => m.project);
  const pingsOf = group<HcPing>(pings, (p) => p.check);
  const flipsOf = group<HcFlip>(flips, (f) => f.check);
  const channelProject = new Map(channels.map((c) => [c.pk, c.project]));
  const notificationsOf = group(notifications, (n) => channelProject.get(n.channel)!);
  for (const list of pingsOf.values()) list.sort((a, b) => (a.n ?? 0) - (b.n ?? 0));

  const total = new Tally();
  /** Accounts already counted (and, in a real run, committed) by an earlier project. */
  const counted = new Set<string>();
  const results: ProjectResult[] = [];

  /** Runs `work` in a transaction that a dry run rolls back; a domain refusal is returned, not thrown. */
  async function inTransaction(work: (tx: Tx) => Promise<void>): Promise<DomainError | null> {
    try {
      await db.$transaction(async (tx) => {
        await work(tx);
        if (options.dryRun) throw new Rollback();
      }, TRANSACTION);
    } catch (err) {
      if (err instanceof Rollback) return null;
      if (err instanceof DomainError) return err;
      throw err;
    }
    return null;
  }

  /** The person for a username within one transaction; accounts counted once per run. */
  function accounts(tally: Tally, warnHere: (w: string) => void = warn) {
    const seen = new Map<string, number | null>();
    const fresh = new Set<string>();
    return {
      fresh,
      async personOf(tx: Tx, username: string): Promise<number | null> {
        if (seen.has(username)) return seen.get(username)!;
        const source = accountSources.get(username);
        if (!source) {
          warnHere(`user ${username} is not in the source (dump auth.user and accounts too): their memberships are not imported`);
          seen.set(username, null);
          return null;
        }
        const already = counted.has(username);
        const outcome = await ensureAccount(tx, source, already ? new Tally() : tally, warnHere);
        if (!already) fresh.add(username);
        seen.set(username, outcome?.personId ?? null);
        return outcome?.personId ?? null;
      },
    };
  }

  for (const project of [...instance.projects].sort((a, b) => a.pk - b.pk)) {
    const owner = users.get(project.owner);
    const bundle: ProjectBundle = {
      project,
      ownerProfile: accountSources.get(project.owner)?.profile ?? null,
      ownerEmail: owner?.email || null,
      members: membersOf.get(project.pk) ?? [],
      checks: checksOf.get(project.pk) ?? [],
      channels: channelsOf.get(project.pk) ?? [],
      pings: new Map([...(checksOf.get(project.pk) ?? [])].map((c) => [c.pk, pingsOf.get(c.pk) ?? []])),
      flips: new Map([...(checksOf.get(project.pk) ?? [])].map((c) => [c.pk, flipsOf.get(c.pk) ?? []])),
      notifications: notificationsOf.get(project.pk) ?? [],
    };
    const tally = new Tally();
    const projectWarnings: string[] = [];
    const people = accounts(tally, (w) => projectWarnings.push(w));
    const projectNotes: string[] = [];
    let outcome: ProjectResult['outcome'] = 'unchanged';
    const refused = await inTransaction(async (tx) => {
      outcome = await importProject(tx, bundle, { secretKey: options.secretKey, now: options.now, personOf: people.personOf, warn: (w) => projectWarnings.push(w), note: (n) => projectNotes.push(n) }, tally);
    });
    const name = project.name || project.code;
    if (refused) {
      results.push({ id: project.code, name, outcome: 'refused', reason: refused.message.startsWith('project ') ? refused.message : `project ${projectLabel(project)}: ${refused.message}`, counts: new Tally().counts });
      continue;
    }
    for (const w of projectWarnings) warn(w);
    for (const n of projectNotes) notes.add(n);
    for (const u of people.fresh) counted.add(u);
    total.merge(tally);
    results.push({ id: project.code, name, outcome, counts: tally.counts });
  }

  // Users in no project still had a login there.
  const rest = instance.users.filter((u) => !counted.has(u.username));
  const accountTally = new Tally();
  if (rest.length) {
    const people = accounts(accountTally);
    const refused = await inTransaction(async (tx) => {
      for (const u of rest) await people.personOf(tx, u.username);
    });
    if (refused) warn(`accounts without a project: ${refused.message}`);
    else total.merge(accountTally);
  }

  return { dryRun: options.dryRun, projects: results, accounts: accountTally.counts, counts: total.counts, warnings: [...warnings], notes: [...notes], ignored: instance.ignored };
}
