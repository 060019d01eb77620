// One Healthchecks project made this server's, inside one transaction: the project with its keys,
// members, channels, checks (with their state, so the monitor goes on where Healthchecks
// stopped), channel assignments, pings, flips and notifications. Every identifier is kept: the
// project's UUID is its id here, check and channel UUIDs, ping key, badge keys. Run again, it
// updates what changed and adds what is new, by those identifiers; it never deletes. A UUID or
// key that is another project's here is a conflict: the transaction ends and nothing of the
// project is written.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../generated/prisma/client.ts';
import { conflict, DomainError, validationError } from '../../shared/errors.ts';
import type { Actor, Role } from '../../identity/roles.ts';
import { recordAudit } from '../../monitoring/audit/service.ts';
import { checkBadgeKeyOf, projectBadgeColumns } from '../../monitoring/badges/keys.ts';
import { applySpec, checkDefaults, type CheckFields } from '../../monitoring/checks/apply-spec.ts';
import { uniqueKeyFor } from '../../monitoring/checks/derived.ts';
import { isValidSchedule } from '../../monitoring/checks/schedule.ts';
import { goingDownAfter } from '../../monitoring/checks/status.ts';
import { parseCheckSpec } from '../../monitoring/checks/validate.ts';
import { hashKey } from '../../monitoring/projects/keys.ts';
import { importedKeyColumn, isHashedHealthchecksKey, isImportedKeyVerifier } from '../../monitoring/projects/imported-keys.ts';
import { PING_LOG_LIMIT_MAX, PING_LOG_LIMIT_MIN } from '../../monitoring/projects/service.ts';
import { syncRecordLinks } from '../../links/store.ts';
import { recordTagsOf } from '../../links/tags.ts';
import { planFlipNotifications, type ChannelTarget, type FlipToNotify } from '../../monitoring/notifications/outbox.ts';
import { memberKeys, toTargets } from '../../monitoring/notifications/recipients.ts';
import { mapChannel, type MappedChannel } from './channels.ts';
import type { HcChannel, HcCheck, HcFlip, HcMember, HcNotification, HcPing, HcProfile, HcProject } from './model.ts';
import type { Outcome, Tally } from './tally.ts';

type Tx = Prisma.TransactionClient;

/** Who the audit log says made the imported rows. */
export const IMPORT_ACTOR: Actor = { personId: null, label: 'Healthchecks import' };

export interface ProjectBundle {
  project: HcProject;
  /** The owner's profile: Healthchecks applies its ping log limit to every project the owner has. */
  ownerProfile: HcProfile | null;
  /** Healthchecks names a nameless project after its owner's address (Project.__str__). */
  ownerEmail: string | null;
  members: HcMember[];
  checks: HcCheck[];
  channels: HcChannel[];
  pings: Map<number, HcPing[]>;
  flips: Map<number, HcFlip[]>;
  notifications: HcNotification[];
}

export interface ProjectContext {
  secretKey: string | null;
  now: Date;
  /** The person a Healthchecks username is here (created as needed, in this transaction); null: not importable. */
  personOf(tx: Tx, username: string): Promise<number | null>;
  warn(message: string): void;
  note(message: string): void;
}

export const ROLES: Record<string, Exclude<Role, 'owner'>> = { r: 'readonly', w: 'regular', m: 'manager' };
const STATUSES = new Set(['new', 'up', 'down', 'paused']);
const KINDS = new Set(['simple', 'cron', 'oncalendar']);
const INT_MAX = 2 ** 31 - 1;

export const projectLabel = (p: HcProject) => `"${p.name || p.code}" (${p.code})`;
const checkLabel = (c: HcCheck) => `check ${c.code}${c.name ? ` ("${c.name}")` : ''}`;
const channelLabel = (c: HcChannel) => `channel ${c.code}${c.name ? ` ("${c.name}")` : ''}`;
const sameTime = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** A check's configuration checked by the API's own rules (parseCheckSpec), in our columns. */
export function checkFields(c: HcCheck): CheckFields {
  if (!KINDS.has(c.kind)) throw validationError(`${checkLabel(c)} is of kind "${c.kind}", which this server does not know`);
  const scheduled = c.kind !== 'simple';
  let spec;
  try {
    spec = parseCheckSpec({
      name: c.name,
      slug: c.slug,
      tags: c.tags,
      desc: c.desc,
      timeout: Math.round(c.timeout),
      grace: Math.round(c.grace),
      ...(scheduled ? { schedule: c.schedule } : {}),
      tz: c.tz,
      methods: c.methods,
      manual_resume: c.manualResume,
      start_kw: c.startKw,
      success_kw: c.successKw,
      failure_kw: c.failureKw,
      filter_subject: c.filterSubject,
      filter_body: c.filterBody,
      filter_http_body: c.filterHttpBody,
      filter_default_fail: c.filterDefaultFail,
    });
  } catch (err) {
    if (err instanceof DomainError) throw validationError(`${checkLabel(c)} cannot be imported: ${err.message.replace(/^json validation error: /, '')}`);
    throw err;
  }
  const fields = applySpec(checkDefaults, spec, 3);
  // The kind Healthchecks stored, not the one the API would guess; a simple check keeps its
  // (unused) schedule as Healthchecks does, for the day it becomes a cron check again.
  fields.kind = c.kind;
  if (!scheduled) fields.schedule = isValidSchedule(c.schedule) ? c.schedule : checkDefaults.schedule;
  return fields;
}

/** The check's state as Healthchecks left it. */
function checkState(c: HcCheck) {
  if (!STATUSES.has(c.status)) throw validationError(`${checkLabel(c)} has the status "${c.status}", which this server does not know`);
  const ms = c.lastDuration === null ? null : Math.round(c.lastDuration * 1000);
  return {
    status: c.status,
    nPings: c.nPings,
    lastPing: c.lastPing,
    lastStart: c.lastStart,
    lastStartRid: c.lastStartRid,
    // Healthchecks shows durations under 72 hours; a longer one is of no use (and no Int).
    lastDurationMs: ms !== null && ms >= 0 && ms <= INT_MAX ? ms : null,
  };
}

type KeyColumns = { apiKeyHash: string | null; apiKeyReadonlyHash: string | null; pingKeyHash: string | null };
type BadgeColumns = ReturnType<typeof projectBadgeColumns>;

/** The audit log's name for each key (rotateKey and revokeKey record key.created, key.revoked). */
const KEY_KINDS: Record<keyof KeyColumns, string> = { apiKeyHash: 'api_key', apiKeyReadonlyHash: 'api_key_readonly', pingKeyHash: 'ping_key' };

/** The keys rotated or revoked here since a first import: a second one leaves them as they are. */
async function keysManagedHere(tx: Tx, projectId: string): Promise<Set<string>> {
  const entries = await tx.auditEntry.findMany({ where: { projectId, action: { in: ['key.created', 'key.revoked'] }, NOT: { actorLabel: IMPORT_ACTOR.label } }, select: { targetId: true } });
  return new Set(entries.map((e) => e.targetId));
}

/**
 * The key columns for an update: the dump's, except a key rotated or revoked here since, and
 * where the dump cannot tell. A hashed key whose verifier was already replaced here by the
 * key's sha256 (the key was used) is the same key: without the key we cannot compare, and
 * rewriting the verifier would only undo the upgrade.
 */
function keyUpdate(current: KeyColumns, wanted: KeyColumns, source: HcProject, secretKey: string | null, managed: Set<string>): Partial<KeyColumns> {
  const out: Partial<KeyColumns> = {};
  const stored: Record<keyof KeyColumns, string | null> = { apiKeyHash: source.apiKey, apiKeyReadonlyHash: source.apiKeyReadonly, pingKeyHash: null };
  for (const column of Object.keys(KEY_KINDS) as Array<keyof KeyColumns>) {
    if (current[column] === wanted[column] || managed.has(KEY_KINDS[column])) continue;
    const hashed = stored[column] !== null && isHashedHealthchecksKey(stored[column]);
    if (hashed && (!secretKey || (current[column] !== null && !isImportedKeyVerifier(current[column])))) continue;
    out[column] = wanted[column];
  }
  return out;
}

/** A key the project is about to get that another project here holds: a conflict, named. */
async function refuseHeldKeys(tx: Tx, projectId: string, label: string, columns: Partial<KeyColumns>, badgeKey: string | undefined) {
  const held: Array<[string, Prisma.ProjectWhereInput | null]> = [
    ['read-write API key', columns.apiKeyHash ? { apiKeyHash: columns.apiKeyHash } : null],
    ['read-only API key', columns.apiKeyReadonlyHash ? { apiKeyReadonlyHash: columns.apiKeyReadonlyHash } : null],
    ['ping key', columns.pingKeyHash ? { pingKeyHash: columns.pingKeyHash } : null],
    ['badge key', badgeKey ? { badgeKey } : null],
  ];
  for (const [what, where] of held) {
    if (!where) continue;
    const other = await tx.project.findFirst({ where: { AND: [where, { id: { not: projectId } }] }, select: { id: true, name: true } });
    if (other) throw conflict(`project ${label}: its ${what} is already project "${other.name}" (${other.id})'s here`);
  }
}

export async function importProject(tx: Tx, bundle: ProjectBundle, ctx: ProjectContext, tally: Tally): Promise<Outcome> {
  const p = bundle.project;
  const label = projectLabel(p);
  const id = p.code;
  const now = ctx.now;

  // Keys. A hashed key without the SECRET_KEY cannot be checked by anyone: left out, said so.
  for (const [what, stored] of [['read-write', p.apiKey], ['read-only', p.apiKeyReadonly]] as const) {
    if (isHashedHealthchecksKey(stored) && !ctx.secretKey) ctx.warn(`project ${label}: its ${what} API key is stored hashed; without --secret-key (the instance's SECRET_KEY) it cannot be checked, so it is not imported (make a new one with \`gateway key rotate\`)`);
  }
  const keys: KeyColumns = {
    apiKeyHash: importedKeyColumn(p.apiKey, ctx.secretKey),
    apiKeyReadonlyHash: importedKeyColumn(p.apiKeyReadonly, ctx.secretKey),
    pingKeyHash: p.pingKey ? hashKey(p.pingKey) : null,
  };

  let name = p.name.trim();
  if (!name) name = bundle.ownerEmail || 'Healthchecks project';
  if (name.length > 100) {
    ctx.warn(`project ${label}: its name is longer than our 100 characters and was cut`);
    name = name.slice(0, 100);
  }
  const pingLogLimit = Math.min(PING_LOG_LIMIT_MAX, Math.max(PING_LOG_LIMIT_MIN, bundle.ownerProfile?.pingLogLimit ?? 100));

  const existing = await tx.project.findUnique({ where: { id } });
  let outcome: Outcome;
  if (!existing) {
    // Healthchecks' badge_key is never blank; a dump without one gets a key of ours.
    const badge = projectBadgeColumns(p.badgeKey || undefined, ctx.secretKey);
    await refuseHeldKeys(tx, id, label, keys, badge.badgeKey);
    await tx.project.create({ data: { id, name, ...keys, ...badge, pingLogLimit } });
    await recordAudit(tx, IMPORT_ACTOR, id, { action: 'project.created', targetKind: 'project', targetId: id, targetName: name, detail: { imported_from: 'healthchecks' } }, now);
    outcome = 'created';
  } else {
    const managed = await keysManagedHere(tx, id);
    const keyChanges = keyUpdate(existing, keys, p, ctx.secretKey, managed);
    const data: Prisma.ProjectUpdateInput = { ...keyChanges };
    if (existing.name !== name) data.name = name;
    if (existing.pingLogLimit !== pingLogLimit) data.pingLogLimit = pingLogLimit;
    let badge: BadgeColumns | null = null;
    if (p.badgeKey && !managed.has('badge_key')) {
      badge = projectBadgeColumns(p.badgeKey, ctx.secretKey);
      if (existing.badgeKey !== badge.badgeKey) Object.assign(data, badge);
      // Without --secret-key a second run does not forget the signing key the first one kept.
      else if (ctx.secretKey && existing.badgeSigningKey !== badge.badgeSigningKey) data.badgeSigningKey = badge.badgeSigningKey;
    }
    await refuseHeldKeys(tx, id, label, keyChanges, badge && existing.badgeKey !== badge.badgeKey ? badge.badgeKey : undefined);
    outcome = Object.keys(data).length ? 'updated' : 'unchanged';
    if (outcome === 'updated') await tx.project.update({ where: { id }, data });
  }
  tally.add('projects', outcome);

  await importMembers(tx, bundle, ctx, tally);
  const channels = await importChannels(tx, bundle, ctx, tally);
  const checks = await importChecks(tx, bundle, ctx, tally);
  await importAssignments(tx, bundle, channels, checks, tally);
  const left = { unnumbered: 0, inObjectStorage: 0 };
  const unsent: FlipToNotify[] = [];
  for (const c of bundle.checks) {
    const checkId = checks.get(c.pk)!;
    await importPings(tx, checkId, bundle.pings.get(c.pk) ?? [], tally, left);
    unsent.push(...(await importFlips(tx, checkId, bundle.flips.get(c.pk) ?? [], tally, now)));
  }
  await queueUnsentAlerts(tx, unsent, tally, ctx, label);
  if (left.unnumbered) ctx.warn(`project ${label}: ${left.unnumbered} pings without a number (from Healthchecks' first versions) are not imported`);
  if (left.inObjectStorage) ctx.warn(`project ${label}: ${left.inObjectStorage} ping bodies were kept in S3 object storage, not in the database: those pings are imported without their body`);
  await importNotifications(tx, bundle, channels, checks, tally, ctx);
  if (outcome === 'unchanged' && tally.changed) outcome = 'updated';
  return outcome;
}

async function importMembers(tx: Tx, bundle: ProjectBundle, ctx: ProjectContext, tally: Tally) {
  const projectId = bundle.project.code;
  const wanted: Array<[string, Role]> = [[bundle.project.owner, 'owner'], ...bundle.members.map((m): [string, Role] => [m.user, ROLES[m.role] ?? 'regular'])];
  for (const [username, wantedRole] of wanted) {
    const personId = await ctx.personOf(tx, username);
    if (personId === null) continue;
    let role = wantedRole;
    if (role === 'owner') {
      // One owner per project: an owner chosen here (after a first import) stays the owner.
      const owner = await tx.projectMember.findFirst({ where: { projectId, role: 'owner', personId: { not: personId } }, select: { personId: true } });
      if (owner) {
        ctx.warn(`project ${projectLabel(bundle.project)}: it has another owner here; its Healthchecks owner ${username} is a manager`);
        role = 'manager';
      }
    }
    const current = await tx.projectMember.findUnique({ where: { projectId_personId: { projectId, personId } } });
    if (!current) {
      await tx.projectMember.create({ data: { projectId, personId, role } });
      await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'member.added', targetKind: 'member', targetId: String(personId), targetName: username, detail: { role } }, ctx.now);
      tally.add('memberships', 'created');
    } else if (current.role !== role && current.role !== 'owner') {
      await tx.projectMember.update({ where: { id: current.id }, data: { role } });
      await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'member.role_changed', targetKind: 'member', targetId: String(personId), targetName: username, detail: { from: current.role, to: role } }, ctx.now);
      tally.add('memberships', 'updated');
    } else tally.add('memberships', 'unchanged');
  }
}

/** Our channel id for each of the project's Healthchecks channels (pk), with how it was mapped. */
type ChannelIds = Map<number, { id: number; mapped: MappedChannel }>;

async function importChannels(tx: Tx, bundle: ProjectBundle, ctx: ProjectContext, tally: Tally): Promise<ChannelIds> {
  const projectId = bundle.project.code;
  const out: ChannelIds = new Map();
  for (const c of bundle.channels) {
    const mapped = mapChannel(c);
    if (!mapped.supported) ctx.note(`project ${projectLabel(bundle.project)}: ${channelLabel(c)} (${c.kind}): ${mapped.note}`);
    const existing = await tx.channel.findUnique({ where: { code: c.code } });
    if (existing && existing.projectId !== projectId) throw conflict(`project ${projectLabel(bundle.project)}: ${channelLabel(c)} is already a channel of project ${existing.projectId} here`);
    const fields = mapped.fields;
    const target = { targetKind: 'channel' as const, targetId: c.code, targetName: fields.name };
    if (!existing) {
      // Consent travels with the channel: a recipient who never confirmed still has not.
      const created = await tx.channel.create({ data: { ...fields, emailVerified: c.emailVerified, code: c.code, projectId, createdAt: c.created } });
      // The note says why an imported channel is off (the log never keeps the value itself).
      const detail = { kind: fields.kind, imported_from: 'healthchecks', ...(mapped.supported ? {} : { note: mapped.note }) };
      await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'channel.created', ...target, detail }, ctx.now);
      out.set(c.pk, { id: created.id, mapped });
      tally.add('channels', 'created');
      continue;
    }
    const changed = (Object.keys(fields) as Array<keyof typeof fields>).filter((k) => fields[k] !== existing[k]);
    if (changed.length) {
      await tx.channel.update({ where: { id: existing.id }, data: fields });
      await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'channel.updated', ...target, detail: { fields: changed } }, ctx.now);
    }
    out.set(c.pk, { id: existing.id, mapped });
    tally.add('channels', changed.length ? 'updated' : 'unchanged');
  }
  return out;
}

async function importChecks(tx: Tx, bundle: ProjectBundle, ctx: ProjectContext, tally: Tally): Promise<Map<number, number>> {
  const projectId = bundle.project.code;
  const out = new Map<number, number>();
  for (const c of bundle.checks) {
    const fields = checkFields(c);
    const state = checkState(c);
    const existing = await tx.check.findUnique({ where: { code: c.code } });
    if (existing && existing.projectId !== projectId) throw conflict(`project ${projectLabel(bundle.project)}: ${checkLabel(c)} is already a check of project ${existing.projectId} here`);
    const badgeKey = c.badgeKey ? checkBadgeKeyOf(c.badgeKey) : (existing?.badgeKey ?? randomUUID());
    const holder = await tx.check.findUnique({ where: { badgeKey }, select: { code: true } });
    if (holder && holder.code !== c.code) throw conflict(`project ${projectLabel(bundle.project)}: the badge key of ${checkLabel(c)} is already check ${holder.code}'s here`);
    const target = { targetKind: 'check' as const, targetId: c.code, targetName: fields.name };
    if (!existing) {
      // Down checks wait for a ping, not for the monitor (which skips them), as in Healthchecks.
      const alertAfter = state.status === 'down' ? null : goingDownAfter({ ...fields, ...state });
      const created = await tx.check.create({ data: { ...fields, ...state, alertAfter, code: c.code, uniqueKey: uniqueKeyFor(c.code), badgeKey, projectId, createdAt: c.created } });
      if (recordTagsOf(created.tags).length) await syncRecordLinks(tx, created.id, created.tags);
      await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'check.created', ...target, detail: { imported_from: 'healthchecks' } }, ctx.now);
      out.set(c.pk, created.id);
      tally.add('checks', 'created');
      continue;
    }
    const changed = (Object.keys(fields) as Array<keyof CheckFields>).filter((k) => fields[k] !== existing[k]);
    const data: Prisma.CheckUpdateInput = {};
    for (const k of changed) (data as Record<string, unknown>)[k] = fields[k];
    if (existing.badgeKey !== badgeKey) data.badgeKey = badgeKey;
    // The state only from a dump at least as recent as what is here (pings received since the
    // first import must not be undone by an older dump).
    if (state.nPings >= existing.nPings) {
      const stateChanged =
        existing.status !== state.status ||
        existing.nPings !== state.nPings ||
        !sameTime(existing.lastPing, state.lastPing) ||
        !sameTime(existing.lastStart, state.lastStart) ||
        existing.lastStartRid !== state.lastStartRid ||
        existing.lastDurationMs !== state.lastDurationMs;
      if (stateChanged) Object.assign(data, state);
    }
    if (Object.keys(data).length) {
      const next = { ...existing, ...fields, ...(data.status !== undefined ? state : {}) };
      data.alertAfter = next.status === 'down' ? null : goingDownAfter(next);
      await tx.check.update({ where: { id: existing.id }, data });
      if (changed.includes('tags')) await syncRecordLinks(tx, existing.id, fields.tags);
      if (changed.length) await recordAudit(tx, IMPORT_ACTOR, projectId, { action: 'check.updated', ...target, detail: { fields: changed } }, ctx.now);
    }
    out.set(c.pk, existing.id);
    tally.add('checks', Object.keys(data).length ? 'updated' : 'unchanged');
  }
  return out;
}

/**
 * Each imported channel notifies the checks Healthchecks assigned to it: missing pairs are added,
 * and pairs of an imported check and an imported channel that Healthchecks no longer has are
 * removed. Channels added here keep their checks.
 */
async function importAssignments(tx: Tx, bundle: ProjectBundle, channels: ChannelIds, checks: Map<number, number>, tally: Tally) {
  const checkIds = [...checks.values()];
  const channelIds = [...channels.values()].map((c) => c.id);
  const wanted = new Set<string>();
  for (const c of bundle.channels) {
    for (const checkPk of c.checks) {
      const checkId = checks.get(checkPk);
      if (checkId !== undefined) wanted.add(`${checkId}:${channels.get(c.pk)!.id}`);
    }
  }
  const current = await tx.checkChannel.findMany({ where: { checkId: { in: checkIds }, channelId: { in: channelIds } } });
  const have = new Set(current.map((a) => `${a.checkId}:${a.channelId}`));
  const gone = current.filter((a) => !wanted.has(`${a.checkId}:${a.channelId}`));
  for (const a of gone) await tx.checkChannel.delete({ where: { checkId_channelId: { checkId: a.checkId, channelId: a.channelId } } });
  const added = [...wanted].filter((k) => !have.has(k)).map((k) => k.split(':').map(Number) as [number, number]);
  if (added.length) await tx.checkChannel.createMany({ data: added.map(([checkId, channelId]) => ({ checkId, channelId })) });
  tally.add('channel_assignments', 'created', added.length);
  tally.add('channel_assignments', 'updated', gone.length);
  tally.add('channel_assignments', 'unchanged', wanted.size - added.length);
}

/** Pings by their number: those already here are the same pings (Healthchecks never changes one). */
async function importPings(tx: Tx, checkId: number, pings: HcPing[], tally: Tally, left: { unnumbered: number; inObjectStorage: number }) {
  const have = new Set((await tx.ping.findMany({ where: { checkId }, select: { n: true } })).map((p) => p.n));
  const numbered = pings.filter((p) => p.n !== null);
  left.unnumbered += pings.length - numbered.length;
  const fresh = numbered.filter((p) => !have.has(p.n!));
  for (let i = 0; i < fresh.length; i += 500) {
    await tx.ping.createMany({
      data: fresh.slice(i, i + 500).map((p) => ({
        checkId,
        n: p.n!,
        createdAt: p.created,
        kind: p.kind ?? 'success',
        scheme: p.scheme,
        remoteAddr: p.remoteAddr,
        method: p.method,
        ua: p.ua,
        rid: p.rid,
        exitStatus: p.exitStatus,
        body: p.body && p.body.length ? (new Uint8Array(p.body) as Uint8Array<ArrayBuffer>) : null,
      })),
    });
  }
  left.inObjectStorage += fresh.filter((p) => p.objectSize && !p.body?.length).length;
  tally.add('pings', 'created', fresh.length);
  tally.add('pings', 'unchanged', numbered.length - fresh.length);
}

const flipKey = (f: { createdAt: Date; oldStatus: string; newStatus: string }) => `${f.createdAt.getTime()}|${f.oldStatus}|${f.newStatus}`;

/**
 * Flips by their time and statuses. Returns the new ones Healthchecks had not processed yet
 * (its sendalerts had not sent their alerts when the instance stopped): they are sent from here.
 */
async function importFlips(tx: Tx, checkId: number, flips: HcFlip[], tally: Tally, now: Date): Promise<FlipToNotify[]> {
  const have = new Set((await tx.flip.findMany({ where: { checkId }, select: { createdAt: true, oldStatus: true, newStatus: true } })).map(flipKey));
  const fresh = flips.filter((f) => !have.has(flipKey({ createdAt: f.created, oldStatus: f.oldStatus, newStatus: f.newStatus })));
  if (fresh.length) {
    await tx.flip.createMany({ data: fresh.map((f) => ({ checkId, createdAt: f.created, oldStatus: f.oldStatus, newStatus: f.newStatus, reason: f.reason, processed: f.processed })) });
  }
  tally.add('flips', 'created', fresh.length);
  tally.add('flips', 'unchanged', flips.length - fresh.length);
  const pending = fresh.filter((f) => f.processed === null);
  if (!pending.length) return [];
  const rows = await tx.flip.findMany({ where: { checkId, processed: null, createdAt: { in: pending.map((f) => f.created) } } });
  return rows.map((f) => ({ checkId, flipId: f.id, oldStatus: f.oldStatus, newStatus: f.newStatus, at: f.createdAt, sendAt: now }));
}

/** The alerts of flips Healthchecks detected but had not sent: queued in our outbox, as our monitor queues its own. */
async function queueUnsentAlerts(tx: Tx, flips: FlipToNotify[], tally: Tally, ctx: ProjectContext, label: string) {
  if (!flips.length) return;
  const fields = { id: true, code: true, projectId: true, kind: true, value: true, disabled: true, notifyDown: true, notifyUp: true } as const;
  const assigned = await tx.checkChannel.findMany({ where: { checkId: { in: flips.map((f) => f.checkId) } }, include: { channel: { select: fields } } });
  // A group stands for its members, as when a flip is queued here (notifications/recipients.ts).
  const keys = memberKeys(assigned.map((a) => a.channel));
  const members = keys.length ? await tx.channel.findMany({ where: { OR: keys }, select: fields }) : [];
  const byCheck = new Map<number, Array<(typeof assigned)[number]['channel']>>();
  for (const a of assigned) byCheck.set(a.checkId, [...(byCheck.get(a.checkId) ?? []), a.channel]);
  const channels = new Map<number, ChannelTarget[]>([...byCheck].map(([checkId, rows]) => [checkId, toTargets(rows, members)]));
  const { rows } = planFlipNotifications(flips, channels);
  if (rows.length) await tx.notification.createMany({ data: rows });
  tally.add('notifications', 'created', rows.length);
  if (rows.length) ctx.note(`project ${label}: ${rows.length} alerts Healthchecks had detected but not sent yet are queued here`);
}

/**
 * Healthchecks' notifications as sent messages of our outbox (an error: failed). Each goes with
 * the latest flip of its check to the status it announced. Those of channels kept disabled for
 * a kind we cannot send are left out: nothing here could show or repeat them.
 */
async function importNotifications(tx: Tx, bundle: ProjectBundle, channels: ChannelIds, checks: Map<number, number>, tally: Tally, ctx: ProjectContext) {
  const list = bundle.notifications.filter((n) => channels.get(n.channel)?.mapped.supported);
  const skipped = bundle.notifications.length - list.length;
  if (skipped) ctx.note(`project ${projectLabel(bundle.project)}: ${skipped} notifications sent to channels imported disabled are not imported`);
  const existing = new Map<string, { channelId: number | null }>();
  for (let i = 0; i < list.length; i += 500) {
    const found = await tx.notification.findMany({ where: { code: { in: list.slice(i, i + 500).map((n) => n.code) } }, select: { code: true, channelId: true } });
    for (const f of found) existing.set(f.code, f);
  }
  const ours = new Set([...channels.values()].map((c) => c.id));
  const flipsOf = new Map<number, Array<{ id: number; createdAt: Date; newStatus: string }>>();
  const fresh = [];
  for (const n of list) {
    const found = existing.get(n.code);
    if (found) {
      if (found.channelId === null || !ours.has(found.channelId)) throw conflict(`project ${projectLabel(bundle.project)}: notification ${n.code} is already another project's here`);
      continue;
    }
    const checkId = n.check === null ? null : (checks.get(n.check) ?? null);
    let flipId: number | null = null;
    if (checkId !== null) {
      if (!flipsOf.has(checkId)) flipsOf.set(checkId, await tx.flip.findMany({ where: { checkId }, select: { id: true, createdAt: true, newStatus: true }, orderBy: { createdAt: 'desc' } }));
      flipId = flipsOf.get(checkId)!.find((f) => f.newStatus === n.checkStatus && f.createdAt <= n.created)?.id ?? null;
    }
    fresh.push({
      code: n.code,
      channelId: channels.get(n.channel)!.id,
      checkId,
      flipId,
      reason: n.check === null ? 'test' : 'flip',
      status: n.checkStatus,
      eventAt: n.created,
      state: n.error ? 'failed' : 'sent',
      attempts: 1,
      nextAttemptAt: n.created,
      lastError: n.error,
      createdAt: n.created,
      sentAt: n.error ? null : n.created,
      lastAttemptAt: n.created,
    });
  }
  for (let i = 0; i < fresh.length; i += 500) await tx.notification.createMany({ data: fresh.slice(i, i + 500) });
  tally.add('notifications', 'created', fresh.length);
  tally.add('notifications', 'unchanged', list.length - fresh.length);
}
