// Invitations over GraphQL and real HTTP, with a real SMTP sink: an owner invites, the mail
// carries the link, the accept page's preview, accepting as a new account (signed in by the
// cookie) or as the person signed in, the member's role, the audit log, who may invite, and
// links that no longer work.
import { describe, expect, it } from 'vitest';
import { useSmtpSink, useWorld, mailTo } from '../../../helpers/fixtures.ts';
import { browserClient, type BrowserClient } from '../../../helpers/browser-client.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { addMember } from '../../../../src/identity/memberships.ts';
import { INVITATION_INVALID } from '../../../../src/identity/invitations.ts';

const sink = useSmtpSink({ reset: true });
const w = useWorld(mailTo(sink));

const PASSWORD = 'correct horse battery';
const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }`;
const INVITE = `mutation($p: ID!, $e: String!, $r: ProjectRole!) { inviteMember(project: $p, email: $e, role: $r) { id email role invitedBy expiresAt } }`;
const PREVIEW = `query($t: String!) { invitation(token: $t) { projectName role email invitedBy } }`;
const ACCEPT = `mutation($t: String!, $u: String, $p: String) { acceptInvitation(token: $t, username: $u, password: $p) { username accountLevel email projects { role project { name } } } }`;

let n = 0;
async function person(): Promise<{ id: number; username: string; email: string; browser: BrowserClient }> {
  n++;
  const a = await createAccount(w.app.db, { username: `guest${n}`, email: `guest${n}@example.org`, password: PASSWORD });
  const browser = browserClient(w);
  await browser.gql(SIGN_IN, { u: a.username, p: PASSWORD });
  return { id: a.id, username: a.username, email: a.email!, browser };
}

async function ownedProject(owner: BrowserClient, name: string) {
  return (await owner.gql(`mutation($n: String!) { createProject(name: $n) { uuid } }`, { n: name })).data.createProject.uuid as string;
}

/** Invites and returns the mailed link's token. */
async function invited(by: BrowserClient, project: string, email: string, role = 'REGULAR') {
  const res = await by.gql(INVITE, { p: project, e: email, r: role });
  expect(res.errors).toBeUndefined();
  const [m] = await sink.waitFor(1);
  sink.messages.length = 0;
  return { invitation: res.data.inviteMember, token: /\/invite\/([A-Za-z0-9_-]{43})\n/.exec(m!.parsed.text ?? '')![1]!, mail: m! };
}

const auditLog = async (by: BrowserClient, project: string) =>
  (await by.gql(`query($p: ID) { project(id: $p) { auditLog { nodes { actor action targetName detail } } } }`, { p: project })).data.project.auditLog.nodes;

describe('inviting and accepting as a new account', () => {
  it('mails the link; the page previews it; accepting makes a User with the invited address, a member with the role, signed in', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser, 'Greenhouse');
    const { invitation, token, mail } = await invited(owner.browser, project, 'Gardener@Example.org', 'READONLY');
    expect(invitation).toMatchObject({ email: 'gardener@example.org', role: 'READONLY', invitedBy: owner.username });
    expect(mail.to).toEqual(['gardener@example.org']);
    expect(mail.parsed.subject).toContain(`${owner.username} invited you to Greenhouse`);
    expect((await owner.browser.gql(`query($p: ID) { project(id: $p) { invitations { id email role invitedBy } } }`, { p: project })).data.project.invitations).toEqual([
      { id: invitation.id, email: 'gardener@example.org', role: 'READONLY', invitedBy: owner.username },
    ]);

    expect((await fetch(`${w.url}/invite/${token}`)).status).toBe(200);
    const visitor = browserClient(w);
    expect((await visitor.gql(PREVIEW, { t: token })).data.invitation).toEqual({ projectName: 'Greenhouse', role: 'READONLY', email: 'gardener@example.org', invitedBy: owner.username });
    const missing = await visitor.gql(ACCEPT, { t: token });
    expect(missing.errors![0]).toMatchObject({ message: 'sign in, or choose a username and a password for a new account', extensions: { code: 'BAD_USER_INPUT' } });
    const accepted = await visitor.gql(ACCEPT, { t: token, u: 'gardener', p: PASSWORD });
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data.acceptInvitation).toEqual({ username: 'gardener', accountLevel: 'User', email: 'gardener@example.org', projects: [{ role: 'READONLY', project: { name: 'Greenhouse' } }] });
    expect(accepted.headers.getSetCookie().join('\n')).toMatch(/^gateway_session=/);
    expect((await visitor.gql(`{ viewer { username } }`)).data.viewer.username).toBe('gardener');

    // Used up: no preview, no second acceptance, no longer pending.
    expect((await browserClient(w).gql(PREVIEW, { t: token })).data.invitation).toBeNull();
    const again = await browserClient(w).gql(ACCEPT, { t: token, u: 'gardener2', p: PASSWORD });
    expect(again.errors![0]).toMatchObject({ message: INVITATION_INVALID, extensions: { code: 'NOT_FOUND' } });
    expect((await owner.browser.gql(`query($p: ID) { project(id: $p) { invitations { id } members { username role } } }`, { p: project })).data.project).toEqual({
      invitations: [],
      members: [
        { username: owner.username, role: 'OWNER' },
        { username: 'gardener', role: 'READONLY' },
      ],
    });
    expect(await auditLog(owner.browser, project)).toEqual([
      { actor: 'gardener', action: 'invitation.accepted', targetName: 'gardener@example.org', detail: '{"role":"readonly"}' },
      { actor: 'gardener', action: 'member.added', targetName: 'gardener', detail: '{"role":"readonly"}' },
      { actor: owner.username, action: 'invitation.sent', targetName: 'gardener@example.org', detail: '{"role":"readonly"}' },
      { actor: owner.username, action: 'project.created', targetName: 'Greenhouse', detail: null },
    ]);
  });
});

describe('accepting as the person signed in', () => {
  it('adds them with the role; the response is their viewer with the new project', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser, 'Library');
    const { token } = await invited(owner.browser, project, 'someone.else@example.org', 'MANAGER');
    const joiner = await person();
    const res = await joiner.browser.gql(ACCEPT, { t: token });
    expect(res.data.acceptInvitation).toMatchObject({ username: joiner.username, projects: [{ role: 'MANAGER', project: { name: 'Library' } }] });
    // No new session: the browser keeps its own.
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await joiner.browser.gql(`query($p: ID) { project(id: $p) { role } }`, { p: project })).data.project.role).toBe('MANAGER');
    expect((await auditLog(owner.browser, project)).slice(0, 2).map((e: { action: string; actor: string }) => [e.actor, e.action])).toEqual([
      [joiner.username, 'invitation.accepted'],
      [joiner.username, 'member.added'],
    ]);
  });

  it('refuses a member (CONFLICT) and an address that is already a member’s', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser, 'Kitchen');
    const { token } = await invited(owner.browser, project, 'cook@example.org');
    expect((await owner.browser.gql(ACCEPT, { t: token })).errors![0]).toMatchObject({ message: 'you are already a member of this project', extensions: { code: 'CONFLICT' } });
    const dup = await owner.browser.gql(INVITE, { p: project, e: owner.email, r: 'REGULAR' });
    expect(dup.errors![0]).toMatchObject({ message: 'that person is already a member of this project', extensions: { code: 'CONFLICT' } });
  });
});

describe('who may invite', () => {
  it('owners and managers; regular and read-only members are FORBIDDEN, and cannot see invitations', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser, 'Workshop');
    const [manager, regular, readonly] = [await person(), await person(), await person()];
    const deps = { db: w.app.db, events: w.app.deps.events, clock: w.clock };
    await addMember(deps, project, manager.id, 'manager');
    await addMember(deps, project, regular.id, 'regular');
    await addMember(deps, project, readonly.id, 'readonly');
    for (const member of [regular, readonly]) {
      const res = await member.browser.gql(INVITE, { p: project, e: 'friend@example.org', r: 'REGULAR' });
      expect(res.errors![0]!.extensions.code).toBe('FORBIDDEN');
      expect((await member.browser.gql(`query($p: ID) { project(id: $p) { invitations { id } } }`, { p: project })).errors![0]!.extensions.code).toBe('FORBIDDEN');
    }
    const owners = await owner.browser.gql(INVITE, { p: project, e: 'friend@example.org', r: 'OWNER' });
    expect(owners.errors![0]).toMatchObject({ message: 'role must be one of manager, regular, readonly', extensions: { code: 'BAD_USER_INPUT' } });
    const { invitation } = await invited(manager.browser, project, 'friend@example.org');
    expect(invitation.invitedBy).toBe(manager.username);
    // Not a member at all: the project is not there.
    const stranger = await person();
    expect((await stranger.browser.gql(INVITE, { p: project, e: 'x@example.org', r: 'REGULAR' })).errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect(sink.messages).toEqual([]);
  });
});

describe('revokeInvitation', () => {
  it('withdraws a pending invitation: its link previews nothing and is refused', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser, 'Garage');
    const { invitation, token } = await invited(owner.browser, project, 'withdrawn@example.org');
    const revoke = `mutation($p: ID!, $i: Int!) { revokeInvitation(project: $p, id: $i) }`;
    expect((await owner.browser.gql(revoke, { p: project, i: invitation.id })).data.revokeInvitation).toBe(true);
    expect((await browserClient(w).gql(PREVIEW, { t: token })).data.invitation).toBeNull();
    const refused = await browserClient(w).gql(ACCEPT, { t: token, u: 'withdrawn', p: PASSWORD });
    expect(refused.errors![0]).toMatchObject({ message: INVITATION_INVALID, extensions: { code: 'NOT_FOUND' } });
    expect((await owner.browser.gql(revoke, { p: project, i: invitation.id })).errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect((await auditLog(owner.browser, project))[0]).toEqual({ actor: owner.username, action: 'invitation.revoked', targetName: 'withdrawn@example.org', detail: '{"role":"regular"}' });
  });
});
