// Projects and their members, Healthchecks' model: the creator owns the project; the owner and
// managers manage members and keys; regular members manage checks and channels; read-only
// members look. Every change that takes access away is published (accessChanged), so open
// subscriptions of the person who lost it end at once, on every instance.
import { committing, TransactionEvents } from '../events/outbox.ts';
import type { Db } from '../db/client.ts';
import type { MonitoringEvents } from '../events/bus.ts';
import type { ProjectAccess } from '../monitoring/context.ts';
import { createProjectWithoutKeys } from '../monitoring/projects/service.ts';
import { conflict, forbidden, notFound, validationError } from '../shared/errors.ts';
import { holdsNul } from '../shared/stored-text.ts';
import { recordAudit } from '../monitoring/audit/service.ts';
import { CLI_ACTOR, isRole, mayManage, type Actor, type Role } from './roles.ts';

export interface MembershipDeps {
  db: Db;
  events: MonitoringEvents;
  clock: { now(): Date };
}

/** The person's projects with their role in each, by project name. */
export async function projectsOf(db: Db, personId: number) {
  const rows = await db.projectMember.findMany({ where: { personId }, include: { project: { select: { id: true, name: true, createdAt: true } } } });
  return rows
    .map((m) => ({ role: m.role as Role, project: m.project }))
    .sort((a, b) => a.project.name.localeCompare(b.project.name) || a.project.createdAt.getTime() - b.project.createdAt.getTime());
}

export async function roleIn(db: Db, projectId: string, personId: number): Promise<Role | null> {
  // No project id holds NUL (and PostgreSQL could not compare one): no role there.
  if (holdsNul(projectId)) return null;
  const member = await db.projectMember.findUnique({ where: { projectId_personId: { projectId, personId } }, select: { role: true } });
  return member && isRole(member.role) ? member.role : null;
}

/** A person's access to a project through their membership; not a member: the project is not found. */
export async function memberAccess(db: Db, projectId: string, person: { id: number; username: string }): Promise<ProjectAccess> {
  const role = await roleIn(db, projectId, person.id);
  if (!role) throw notFound('project not found');
  return { projectId, readOnly: role === 'readonly', role, actor: { personId: person.id, label: person.username } };
}

export function requireManager(access: ProjectAccess) {
  if (!mayManage(access.role)) throw forbidden('only the owner and managers can do this');
}

const requireOwner = (access: ProjectAccess) => {
  if (access.role !== 'owner') throw forbidden('only the owner can do this');
};

/**
 * A project created by a person, who owns it. Like Healthchecks, it starts without API keys
 * or a ping key: owners and managers create them when a program needs one (shown once).
 */
export async function createOwnedProject(deps: MembershipDeps, actor: Actor & { personId: number }, name: string) {
  const project = await createProjectWithoutKeys(deps.db, { name });
  try {
    await deps.db.$transaction(async (tx) => {
      await tx.projectMember.create({ data: { projectId: project.id, personId: actor.personId, role: 'owner' } });
      await recordAudit(tx, actor, project.id, { action: 'project.created', targetKind: 'project', targetId: project.id, targetName: project.name }, deps.clock.now());
    });
  } catch (err) {
    // No project without its owner: nobody could ever reach it.
    await deps.db.project.deleteMany({ where: { id: project.id } });
    throw err;
  }
  return project;
}

const usernameOf = async (db: Db, personId: number) => (await db.person.findUnique({ where: { ID: personId }, select: { Username: true } }))?.Username ?? `#${personId}`;

/** Held with the membership change (events/outbox.ts): every instance hears of it, even if this one dies after the commit. */
function accessChanged(events: TransactionEvents, personId: number, projectId: string) {
  events.add('accessChanged', { personId, projectId, sessionId: null });
}

function parseRole(role: string, allowOwner = false): Role {
  if (!isRole(role) || (!allowOwner && role === 'owner')) {
    throw validationError(`role must be one of ${allowOwner ? 'owner, ' : ''}manager, regular, readonly`);
  }
  return role;
}

/**
 * Adds a person to a project (the CLI, an accepted invitation). As owner, the previous owner
 * (if any) stays as a manager: a project has one owner. Already a member: the role changes.
 */
export async function addMember(deps: MembershipDeps, projectId: string, personId: number, roleName: string, actor: Actor = CLI_ACTOR): Promise<Role> {
  const role = parseRole(roleName, true);
  const previous = await roleIn(deps.db, projectId, personId);
  if (previous === role) return role;
  const targetName = await usernameOf(deps.db, personId);
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    const action = previous ? 'member.role_changed' : 'member.added';
    await recordAudit(tx, actor, projectId, { action, targetKind: 'member', targetId: String(personId), targetName, detail: previous ? { from: previous, to: role } : { role } }, deps.clock.now());
    // One owner: the previous one (if any) stays as a manager, and the log says so.
    const previousOwner = role === 'owner' ? await tx.projectMember.findFirst({ where: { projectId, role: 'owner', personId: { not: personId } }, include: { person: { select: { Username: true } } } }) : null;
    if (previousOwner) {
      await tx.projectMember.update({ where: { id: previousOwner.id }, data: { role: 'manager' } });
      const name = previousOwner.person.Username ?? `#${previousOwner.personId}`;
      await recordAudit(tx, actor, projectId, { action: 'member.role_changed', targetKind: 'member', targetId: String(previousOwner.personId), targetName: name, detail: { from: 'owner', to: 'manager' } }, deps.clock.now());
      accessChanged(events, previousOwner.personId, projectId);
    }
    await tx.projectMember.upsert({
      where: { projectId_personId: { projectId, personId } },
      create: { projectId, personId, role },
      update: { role },
    });
    if (previous && previous !== role) accessChanged(events, personId, projectId);
  });
  return role;
}

async function requireMember(db: Db, projectId: string, personId: number): Promise<Role> {
  const role = await roleIn(db, projectId, personId);
  if (!role) throw notFound('member not found');
  return role;
}

/** Owners and managers change a member's role; the owner's role changes only by a transfer. */
export async function changeRole(deps: MembershipDeps, access: ProjectAccess, personId: number, roleName: string): Promise<{ from: Role; to: Role }> {
  requireManager(access);
  const role = parseRole(roleName);
  const from = await requireMember(deps.db, access.projectId, personId);
  if (from === 'owner') throw conflict('the owner’s role changes only by transferring ownership');
  if (from === role) return { from, to: role };
  const targetName = await usernameOf(deps.db, personId);
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    await tx.projectMember.updateMany({ where: { projectId: access.projectId, personId, role: from }, data: { role } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'member.role_changed', targetKind: 'member', targetId: String(personId), targetName, detail: { from, to: role } }, deps.clock.now());
    accessChanged(events, personId, access.projectId);
  });
  return { from, to: role };
}

/** Owners and managers remove a member (not the owner). */
export async function removeMember(deps: MembershipDeps, access: ProjectAccess, personId: number): Promise<Role> {
  requireManager(access);
  const role = await requireMember(deps.db, access.projectId, personId);
  if (role === 'owner') throw conflict('the owner cannot be removed; transfer ownership first');
  const targetName = await usernameOf(deps.db, personId);
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    await tx.projectMember.deleteMany({ where: { projectId: access.projectId, personId } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'member.removed', targetKind: 'member', targetId: String(personId), targetName, detail: { role } }, deps.clock.now());
    accessChanged(events, personId, access.projectId);
  });
  return role;
}

/** A member leaves; the owner must first hand the project to someone else. */
export async function leaveProject(deps: MembershipDeps, access: ProjectAccess & { actor: { personId: number } }) {
  if (access.role === 'owner') throw conflict('the owner cannot leave; transfer ownership first');
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    await tx.projectMember.deleteMany({ where: { projectId: access.projectId, personId: access.actor.personId } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'member.left', targetKind: 'member', targetId: String(access.actor.personId), targetName: access.actor.label, detail: { role: access.role } }, deps.clock.now());
    accessChanged(events, access.actor.personId, access.projectId);
  });
}

/** The owner hands the project to another member, and stays as a manager. */
export async function transferOwnership(deps: MembershipDeps, access: ProjectAccess & { actor: { personId: number } }, toPersonId: number) {
  requireOwner(access);
  if (toPersonId === access.actor.personId) throw validationError('you already own this project');
  await requireMember(deps.db, access.projectId, toPersonId);
  await committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    await tx.projectMember.updateMany({ where: { projectId: access.projectId, personId: access.actor.personId }, data: { role: 'manager' } });
    await tx.projectMember.updateMany({ where: { projectId: access.projectId, personId: toPersonId }, data: { role: 'owner' } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'ownership.transferred', targetKind: 'member', targetId: String(toPersonId), targetName: await usernameOf(tx as unknown as Db, toPersonId) }, deps.clock.now());
    accessChanged(events, access.actor.personId, access.projectId);
    accessChanged(events, toPersonId, access.projectId);
  });
}

/** The project's members with their accounts' usernames and addresses, owner first. */
export async function listMembers(db: Db, projectId: string) {
  const order: Record<string, number> = { owner: 0, manager: 1, regular: 2, readonly: 3 };
  const rows = await db.projectMember.findMany({ where: { projectId }, include: { person: { select: { ID: true, Username: true, FirstName: true, LastName: true } } } });
  return rows
    .map((m) => ({ personId: m.personId, role: m.role as Role, since: m.createdAt, username: m.person.Username ?? '', name: `${m.person.FirstName} ${m.person.LastName}`.trim() }))
    .sort((a, b) => order[a.role]! - order[b.role]! || a.username.localeCompare(b.username));
}
