// Invitations in the domain, through a real SMTP sink: who may invite, the mailed single-use
// link (7 days, stored hashed), the preview, accepting as a new account or as an existing one,
// withdrawing, and what the audit log keeps of it all.
import { describe, expect, it } from 'vitest';
import { useSmtpSink, useWorld, mailTo } from '../helpers/fixtures.ts';
import { createAccount } from '../../src/identity/accounts.ts';
import type { IdentityDeps } from '../../src/identity/context.ts';
import { acceptInvitation, INVITATION_INVALID, invitationByToken, invite, listInvitations, revokeInvitation } from '../../src/identity/invitations.ts';
import { MAIL_NOT_CONFIGURED } from '../../src/identity/mail.ts';
import { addMember, createOwnedProject, roleIn } from '../../src/identity/memberships.ts';
import type { Role } from '../../src/identity/roles.ts';
import type { ProjectAccess } from '../../src/monitoring/context.ts';
import { hashSecret } from '../../src/identity/tokens.ts';
import { signIn } from '../../src/identity/sign-in.ts';

const sink = useSmtpSink({ reset: true });
const w = useWorld(mailTo(sink, { SITE_NAME: 'Campus Checks' }));

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const deps = (): IdentityDeps => w.app.services.identity;
const refused = (code: string, message?: string) => expect.objectContaining({ code, ...(message ? { message } : {}) });

let n = 0;
async function account() {
  n++;
  return createAccount(w.app.db, { username: `inviter${n}`, email: `inviter${n}@example.org`, password: PASSWORD });
}

/** A project owned by a new account, and that owner's access. */
async function project(name = 'Ops') {
  const owner = await account();
  const created = await createOwnedProject(deps(), { personId: owner.id, label: owner.username }, name);
  return { owner, projectId: created.id, access: accessOf(created.id, owner, 'owner') };
}

const accessOf = (projectId: string, person: { id: number; username: string }, role: Role): ProjectAccess => ({ projectId, role, readOnly: role === 'readonly', actor: { personId: person.id, label: person.username } });

async function invited(access: ProjectAccess, email: string, role = 'regular') {
  const invitation = await invite(deps(), access, email, role);
  const [m] = await sink.waitFor(1);
  sink.messages.length = 0;
  const token = /\/invite\/([A-Za-z0-9_-]{43})\n/.exec(m!.parsed.text ?? '')![1]!;
  return { invitation, token, mail: m! };
}

const auditOf = async (projectId: string) => (await w.app.db.auditEntry.findMany({ where: { projectId }, orderBy: { id: 'asc' } })).map((e) => [e.actorLabel, e.action, e.targetName, e.detail]);

describe('invite', () => {
  it('mails a single-use link for 7 days, stored hashed, and records the invitation in the audit log', async () => {
    const { owner, projectId, access } = await project('Weather station');
    const { invitation, token, mail } = await invited(access, 'New.Member@Example.org', 'manager');
    expect(invitation).toMatchObject({ email: 'new.member@example.org', role: 'manager', invitedBy: owner.username, expiresAt: new Date(w.clock.now().getTime() + 7 * DAY) });
    expect(mail.to).toEqual(['new.member@example.org']);
    expect(mail.parsed.subject).toBe(`${owner.username} invited you to Weather station on Campus Checks`);
    expect(mail.parsed.text).toContain('as a manager');
    expect(mail.parsed.html).toContain(`href="${w.url}/invite/${token}"`);
    const row = await w.app.db.projectInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(hashSecret(token));
    expect(await listInvitations(deps(), projectId)).toEqual([invitation]);
    expect(await invitationByToken(deps(), token)).toEqual({ projectName: 'Weather station', role: 'manager', email: 'new.member@example.org', invitedBy: owner.username });
    expect((await auditOf(projectId)).slice(1)).toEqual([[owner.username, 'invitation.sent', 'new.member@example.org', '{"role":"manager"}']]);
  });

  it('is for owners and managers only, and never makes an owner', async () => {
    const { projectId, access } = await project();
    const member = await account();
    for (const role of ['regular', 'readonly'] as const) {
      await expect(invite(deps(), accessOf(projectId, member, role), 'x@example.org', 'readonly')).rejects.toEqual(refused('FORBIDDEN'));
    }
    await expect(invite(deps(), access, 'x@example.org', 'owner')).rejects.toEqual(refused('VALIDATION', 'role must be one of manager, regular, readonly'));
    await expect(invite(deps(), access, 'not-an-address', 'regular')).rejects.toEqual(refused('VALIDATION', 'enter a valid email address'));
    await invited(accessOf(projectId, member, 'manager'), 'by-a-manager@example.org');
    expect(await w.app.db.projectInvitation.count({ where: { projectId } })).toBe(1);
  });

  it('refuses an address whose account is already a member (CONFLICT), and without mail settings (before anything is stored)', async () => {
    const { owner, projectId, access } = await project();
    await expect(invite(deps(), access, owner.email!.toUpperCase(), 'regular')).rejects.toEqual(refused('CONFLICT', 'that person is already a member of this project'));
    const noMail = { ...deps(), settings: { ...deps().settings, email: null } };
    await expect(invite(noMail, access, 'someone@example.org', 'regular')).rejects.toEqual(refused('VALIDATION', MAIL_NOT_CONFIGURED));
    expect(await w.app.db.projectInvitation.count({ where: { projectId } })).toBe(0);
  });

  it('keeps no invitation when the mail server refuses the message', async () => {
    const { projectId, access } = await project();
    sink.refuse(550);
    await expect(invite(deps(), access, 'bounce@example.org', 'regular')).rejects.toEqual(refused('VALIDATION', 'the mail server refused the message: check the address'));
    sink.refuse(null);
    expect(await w.app.db.projectInvitation.count({ where: { projectId } })).toBe(0);
    expect((await auditOf(projectId)).map((e) => e[1])).toEqual(['project.created']);
  });

  it('replaces the pending invitation to the same address: only the newest link works', async () => {
    const { projectId, access } = await project();
    const first = await invited(access, 'again@example.org', 'readonly');
    const second = await invited(access, 'again@example.org', 'regular');
    expect(await invitationByToken(deps(), first.token)).toBeNull();
    expect((await listInvitations(deps(), projectId)).map((i) => [i.id, i.role])).toEqual([[second.invitation.id, 'regular']]);
  });
});

describe('acceptInvitation', () => {
  it('as a new account: a User with the invited address joins with the role, signs in, and the link is spent', async () => {
    const { owner, projectId, access } = await project();
    const { invitation, token } = await invited(access, 'Newcomer@Example.org', 'readonly');
    const accepted = await acceptInvitation(deps(), token, { newAccount: { username: 'newcomer', password: PASSWORD } });
    expect(accepted).toMatchObject({ username: 'newcomer', projectId, role: 'readonly' });
    const person = await w.app.db.person.findUniqueOrThrow({ where: { ID: accepted.personId } });
    expect(person.AccountLevel).toBe('User');
    expect((await signIn(deps(), { login: 'newcomer@example.org', password: PASSWORD }, { throttle: null, address: '192.0.2.1' })).person.ID).toBe(person.ID);
    expect(await roleIn(w.app.db, projectId, person.ID)).toBe('readonly');
    expect(await invitationByToken(deps(), token)).toBeNull();
    expect(await listInvitations(deps(), projectId)).toEqual([]);
    await expect(acceptInvitation(deps(), token, { newAccount: { username: 'newcomer2', password: PASSWORD } })).rejects.toEqual(refused('NOT_FOUND', INVITATION_INVALID));
    expect((await auditOf(projectId)).slice(1)).toEqual([
      [owner.username, 'invitation.sent', 'newcomer@example.org', '{"role":"readonly"}'],
      ['newcomer', 'member.added', 'newcomer', '{"role":"readonly"}'],
      ['newcomer', 'invitation.accepted', 'newcomer@example.org', '{"role":"readonly"}'],
    ]);
    expect((await w.app.db.auditEntry.findMany({ where: { projectId, action: 'invitation.accepted' } }))[0]!.targetId).toBe(String(invitation.id));
  });

  it('as an existing person (with another address): they join; already a member is CONFLICT and the link stays usable', async () => {
    const { owner, projectId, access } = await project();
    const { token } = await invited(access, 'elsewhere@example.org', 'manager');
    await expect(acceptInvitation(deps(), token, { personId: owner.id })).rejects.toEqual(refused('CONFLICT', 'you are already a member of this project'));
    expect(await roleIn(w.app.db, projectId, owner.id)).toBe('owner');
    const joiner = await account();
    expect(await acceptInvitation(deps(), token, { personId: joiner.id })).toMatchObject({ personId: joiner.id, role: 'manager' });
    expect(await roleIn(w.app.db, projectId, joiner.id)).toBe('manager');
  });

  it('a new account that cannot be made leaves the link usable (a taken username, an address with an account)', async () => {
    const { owner, access } = await project();
    const { token } = await invited(access, 'retry@example.org');
    await expect(acceptInvitation(deps(), token, { newAccount: { username: owner.username, password: PASSWORD } })).rejects.toEqual(refused('CONFLICT', 'that username is taken'));
    await expect(acceptInvitation(deps(), token, { newAccount: { username: 'retry', password: 'short' } })).rejects.toEqual(refused('VALIDATION'));
    expect(await invitationByToken(deps(), token)).not.toBeNull();
    await expect(acceptInvitation(deps(), token, { newAccount: { username: 'retry', password: PASSWORD } })).resolves.toMatchObject({ username: 'retry' });

    const other = await project();
    const again = await invited(other.access, 'retry@example.org');
    await expect(acceptInvitation(deps(), again.token, { newAccount: { username: 'retry-two', password: PASSWORD } })).rejects.toEqual(
      refused('CONFLICT', 'an account with this address exists: sign in with it, then accept the invitation'),
    );
  });

  it('of two acceptances at once, exactly one wins', async () => {
    const { projectId, access } = await project();
    const { token } = await invited(access, 'race@example.org');
    const [a, b] = [await account(), await account()];
    const results = await Promise.allSettled([acceptInvitation(deps(), token, { personId: a.id }), acceptInvitation(deps(), token, { personId: b.id })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await w.app.db.projectMember.count({ where: { projectId, personId: { in: [a.id, b.id] } } })).toBe(1);
  });

  it('refuses an expired or withdrawn invitation', async () => {
    const { owner, projectId, access } = await project();
    const expiring = await invited(access, 'late@example.org');
    const withdrawn = await invited(access, 'withdrawn@example.org');
    await revokeInvitation(deps(), access, withdrawn.invitation.id);
    await expect(acceptInvitation(deps(), withdrawn.token, { newAccount: { username: 'withdrawn', password: PASSWORD } })).rejects.toEqual(refused('NOT_FOUND', INVITATION_INVALID));
    expect(await invitationByToken(deps(), withdrawn.token)).toBeNull();
    w.clock.advance(7 * DAY);
    expect(await invitationByToken(deps(), expiring.token)).toBeNull();
    expect(await listInvitations(deps(), projectId)).toEqual([]);
    await expect(acceptInvitation(deps(), expiring.token, { newAccount: { username: 'late', password: PASSWORD } })).rejects.toEqual(refused('NOT_FOUND', INVITATION_INVALID));
    expect((await auditOf(projectId)).at(-1)).toEqual([owner.username, 'invitation.revoked', 'withdrawn@example.org', '{"role":"regular"}']);
  });
});

describe('revokeInvitation', () => {
  it('is for owners and managers, of this project’s invitations not yet accepted', async () => {
    const { projectId, access } = await project();
    const other = await project();
    const { invitation, token } = await invited(access, 'keep@example.org');
    const member = await account();
    await addMember(deps(), projectId, member.id, 'regular');
    await expect(revokeInvitation(deps(), accessOf(projectId, member, 'regular'), invitation.id)).rejects.toEqual(refused('FORBIDDEN'));
    await expect(revokeInvitation(deps(), other.access, invitation.id)).rejects.toEqual(refused('NOT_FOUND', 'invitation not found'));
    await acceptInvitation(deps(), token, { newAccount: { username: 'keeper', password: PASSWORD } });
    await expect(revokeInvitation(deps(), access, invitation.id)).rejects.toEqual(refused('NOT_FOUND', 'invitation not found'));
  });
});
