// Invitations to a project, by email: an owner or manager names an address and a role, the
// address gets a single-use link (7 days; only its sha256 is stored, ProjectInvitation), and
// whoever follows it joins with that role: as the person signed in, or as a new account with
// the invited address (the link proved the mailbox). A new invitation to the same address
// replaces the pending one; revoking or accepting ends the link. Sent, revoked and accepted
// invitations are in the project's audit log, and the new member's arrival too (addMember).
import type { ProjectAccess } from '../monitoring/context.ts';
import { recordAudit } from '../monitoring/audit/service.ts';
import { conflict, notFound, validationError } from '../shared/errors.ts';
import { accountIdByEmail, createAccount, isEmail, normalEmail } from './accounts.ts';
import type { IdentityDeps } from './context.ts';
import { requireMail, sendIdentityMail, siteLink } from './mail.ts';
import { addMember, requireManager, roleIn } from './memberships.ts';
import type { Role } from './roles.ts';
import { hashSecret, newSecret } from './tokens.ts';

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;
export const INVITATION_INVALID = 'this invitation has expired, was withdrawn or was already accepted';
const INVITABLE_ROLES = ['manager', 'regular', 'readonly'] as const;
type InvitableRole = (typeof INVITABLE_ROLES)[number];

export interface InvitationInfo {
  id: number;
  email: string;
  role: InvitableRole;
  /** The inviter's username (null when their account is gone). */
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface InvitationPreview {
  projectName: string;
  role: InvitableRole;
  email: string;
  invitedBy: string | null;
}

const ROLE_WORDS: Record<InvitableRole, string> = {
  manager: 'a manager (checks, channels, members and keys)',
  regular: 'a member (checks and channels)',
  readonly: 'a read-only member',
};

function parseRole(role: string): InvitableRole {
  // The owner is one person, made by transferring ownership, never by an invitation.
  if (!(INVITABLE_ROLES as readonly string[]).includes(role)) throw validationError(`role must be one of ${INVITABLE_ROLES.join(', ')}`);
  return role as InvitableRole;
}

const usernamesOf = async (deps: Pick<IdentityDeps, 'db'>, ids: Array<number | null>) => {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const people = wanted.length ? await deps.db.person.findMany({ where: { ID: { in: wanted } }, select: { ID: true, Username: true } }) : [];
  return new Map(people.map((p) => [p.ID, p.Username]));
};

/**
 * Invites `email` to the project as `role` (manager, regular or readonly): owners and managers
 * only. The mail goes out before the answer; if it cannot, the invitation is not kept. An
 * address whose account is already a member: CONFLICT.
 */
export async function invite(deps: IdentityDeps, access: ProjectAccess, email: string, roleName: string): Promise<InvitationInfo> {
  requireManager(access);
  const role = parseRole(roleName);
  if (!isEmail(email)) throw validationError('enter a valid email address');
  const address = normalEmail(email);
  requireMail(deps.settings);
  const existing = await accountIdByEmail(deps.db, address);
  if (existing !== null && (await roleIn(deps.db, access.projectId, existing))) throw conflict('that person is already a member of this project');
  const project = await deps.db.project.findUniqueOrThrow({ where: { id: access.projectId }, select: { name: true } });
  const now = deps.clock.now();
  const token = newSecret();
  const row = await deps.db.projectInvitation.create({
    data: { projectId: access.projectId, email: address, role, tokenHash: hashSecret(token), invitedById: access.actor.personId, createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS) },
  });
  const site = deps.settings.siteName;
  try {
    await sendIdentityMail(deps.settings, {
      to: address,
      subject: `${access.actor.label} invited you to ${project.name} on ${site}`,
      intro: [`Hello,`, `${access.actor.label} invited you to join the project "${project.name}" on ${site} as ${ROLE_WORDS[role]}.`],
      link: { label: 'Accept the invitation', url: siteLink(deps.settings, 'invite', token) },
      outro: ['The link works once, within 7 days. Without an account yet, you choose a username and a password as you accept.', 'If you did not expect this invitation, ignore this mail.'],
    });
  } catch (err) {
    await deps.db.projectInvitation.deleteMany({ where: { id: row.id } });
    throw err;
  }
  await deps.db.$transaction(async (tx) => {
    // The earlier invitation to this address stops working: the newest mail is the one to follow.
    await tx.projectInvitation.deleteMany({ where: { projectId: access.projectId, email: address, acceptedAt: null, id: { not: row.id } } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'invitation.sent', targetKind: 'invitation', targetId: String(row.id), targetName: address, detail: { role } }, now);
  });
  return { id: row.id, email: address, role, invitedBy: access.actor.label, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

/** The project's invitations not yet accepted and still valid, oldest first. */
export async function listInvitations(deps: Pick<IdentityDeps, 'db' | 'clock'>, projectId: string): Promise<InvitationInfo[]> {
  const rows = await deps.db.projectInvitation.findMany({ where: { projectId, acceptedAt: null, expiresAt: { gt: deps.clock.now() } }, orderBy: { id: 'asc' } });
  const names = await usernamesOf(deps, rows.map((r) => r.invitedById));
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role as InvitableRole, invitedBy: names.get(r.invitedById ?? -1) ?? null, createdAt: r.createdAt, expiresAt: r.expiresAt }));
}

/** Withdraws an invitation not yet accepted (owners and managers): its link stops working. */
export async function revokeInvitation(deps: IdentityDeps, access: ProjectAccess, id: number): Promise<void> {
  requireManager(access);
  await deps.db.$transaction(async (tx) => {
    const row = await tx.projectInvitation.findFirst({ where: { id, projectId: access.projectId, acceptedAt: null } });
    const { count } = row ? await tx.projectInvitation.deleteMany({ where: { id, acceptedAt: null } }) : { count: 0 };
    if (!row || count === 0) throw notFound('invitation not found');
    await recordAudit(tx, access.actor, access.projectId, { action: 'invitation.revoked', targetKind: 'invitation', targetId: String(id), targetName: row.email, detail: { role: row.role } }, deps.clock.now());
  });
}

/** The invitation behind a link when it can still be accepted; else null. */
async function liveInvitation(deps: Pick<IdentityDeps, 'db' | 'clock'>, token: string) {
  if (!token || token.length > 200) return null;
  const row = await deps.db.projectInvitation.findUnique({ where: { tokenHash: hashSecret(token) }, include: { project: { select: { name: true } } } });
  return row && row.acceptedAt === null && row.expiresAt > deps.clock.now() ? row : null;
}

/** What the accept page shows: the project, the role, the address and who invited; null when the link is not valid. */
export async function invitationByToken(deps: Pick<IdentityDeps, 'db' | 'clock'>, token: string): Promise<InvitationPreview | null> {
  const row = await liveInvitation(deps, token);
  if (!row) return null;
  const names = await usernamesOf(deps, [row.invitedById]);
  return { projectName: row.project.name, role: row.role as InvitableRole, email: row.email, invitedBy: names.get(row.invitedById ?? -1) ?? null };
}

/** Who accepts: the person signed in, or a new account (with the invited address). */
export type Invitee = { personId: number } | { newAccount: { username: string; password: string } };

export interface Accepted {
  personId: number;
  username: string;
  projectId: string;
  role: Role;
}

/**
 * Accepts an invitation: the person joins the project with its role, and the link is used up
 * (a compare-and-set on acceptedAt: of two acceptances at once, one wins). A new account is a
 * User with the invited address; a person already a member is CONFLICT, and the link stays.
 */
export async function acceptInvitation(deps: IdentityDeps, token: string, who: Invitee): Promise<Accepted> {
  const row = await liveInvitation(deps, token);
  if (!row) throw notFound(INVITATION_INVALID);
  if ('personId' in who && (await roleIn(deps.db, row.projectId, who.personId))) throw conflict('you are already a member of this project');
  if ('newAccount' in who && (await accountIdByEmail(deps.db, row.email)) !== null) throw conflict('an account with this address exists: sign in with it, then accept the invitation');
  const now = deps.clock.now();
  const { count } = await deps.db.projectInvitation.updateMany({ where: { id: row.id, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
  if (count === 0) throw notFound(INVITATION_INVALID);
  let person: { personId: number; username: string };
  try {
    if ('personId' in who) {
      const found = await deps.db.person.findUniqueOrThrow({ where: { ID: who.personId }, select: { Username: true } });
      person = { personId: who.personId, username: found.Username ?? `#${who.personId}` };
    } else {
      const account = await createAccount(deps.db, { ...who.newAccount, email: row.email, level: 'User' });
      person = { personId: account.id, username: account.username };
    }
  } catch (err) {
    // No account made (a taken username, a password too short): the link works again.
    await deps.db.projectInvitation.updateMany({ where: { id: row.id, acceptedAt: now }, data: { acceptedAt: null } });
    throw err;
  }
  const actor = { personId: person.personId, label: person.username };
  const role = await addMember(deps, row.projectId, person.personId, row.role, actor);
  await recordAudit(deps.db, actor, row.projectId, { action: 'invitation.accepted', targetKind: 'invitation', targetId: String(row.id), targetName: row.email, detail: { role } }, now);
  return { ...person, projectId: row.projectId, role };
}
