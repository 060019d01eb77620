// A signed-in person's projects: creating one, roles and their rights on every path (queries,
// mutations, subscriptions), members, keys shown once, and the audit log of who did what.
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { useWorld } from '../../../helpers/fixtures.ts';
import { browserClient, type BrowserClient } from '../../../helpers/browser-client.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { addMember } from '../../../../src/identity/memberships.ts';

const w = useWorld();
const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.dispose())));

const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }`;
let n = 0;

async function person(): Promise<{ id: number; username: string; browser: BrowserClient }> {
  n++;
  const a = await createAccount(w.app.db, { username: `member${n}`, email: `member${n}@example.org`, password: 'correct horse battery', level: 'User' });
  const browser = browserClient(w);
  await browser.gql(SIGN_IN, { u: a.username, p: 'correct horse battery' });
  return { id: a.id, username: a.username, browser };
}

async function ownedProject(owner: BrowserClient, name = 'Ops') {
  const res = await owner.gql(`mutation($n: String!) { createProject(name: $n) { uuid name role } }`, { n: name });
  expect(res.errors).toBeUndefined();
  return res.data.createProject as { uuid: string; name: string; role: string };
}

const membership = (projectId: string) => ({ db: w.app.db, events: w.app.deps.events, clock: w.clock, projectId });

describe('createProject', () => {
  it('makes the creator the owner; the project starts without API keys, which owners create and see once', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser);
    expect(project.role).toBe('OWNER');
    const viewer = (await owner.browser.gql(`{ viewer { projects { role project { uuid } } } }`)).data.viewer;
    expect(viewer.projects).toEqual([{ role: 'OWNER', project: { uuid: project.uuid } }]);
    const keys = await owner.browser.gql(`query($p: ID) { project(id: $p) { keys { kind name exists } } }`, { p: project.uuid });
    expect(keys.data.project.keys).toEqual([
      { kind: 'READ_WRITE', name: 'API key (read-write)', exists: false },
      { kind: 'READ_ONLY', name: 'API key (read-only)', exists: false },
      { kind: 'PING', name: 'Ping key', exists: false },
    ]);
    const key = (await owner.browser.gql(`mutation($p: ID!) { createProjectKey(project: $p, kind: READ_WRITE) }`, { p: project.uuid })).data.createProjectKey as string;
    expect(key).toMatch(/^hcw_[A-Za-z0-9]{28}$/);
    // The key works for programs, exactly as a CLI-made one, and its actions are its own in the log.
    const created = await w.api('POST', '/api/v3/checks/', { key, body: { name: 'from a script' } });
    expect(created.status).toBe(201);
    expect((await owner.browser.gql(`mutation($p: ID!) { revokeProjectKey(project: $p, kind: READ_WRITE) }`, { p: project.uuid })).data.revokeProjectKey).toBe(true);
    expect((await w.api('GET', '/api/v3/checks/', { key })).status).toBe(401);
    const log = (await owner.browser.gql(`query($p: ID) { project(id: $p) { auditLog { nodes { actor action targetName } } } }`, { p: project.uuid })).data.project.auditLog.nodes;
    expect(log).toEqual([
      { actor: owner.username, action: 'key.revoked', targetName: 'API key (read-write)' },
      { actor: 'API key (read-write)', action: 'check.created', targetName: 'from a script' },
      { actor: owner.username, action: 'key.created', targetName: 'API key (read-write)' },
      { actor: owner.username, action: 'project.created', targetName: 'Ops' },
    ]);
  });

  it('needs a signed-in person', async () => {
    const res = await browserClient(w).gql(`mutation { createProject(name: "x") { uuid } }`);
    expect(res.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('roles', () => {
  async function team() {
    const owner = await person();
    const project = await ownedProject(owner.browser);
    const [manager, regular, reader] = [await person(), await person(), await person()];
    const deps = membership(project.uuid);
    await addMember(deps, project.uuid, manager.id, 'manager');
    await addMember(deps, project.uuid, regular.id, 'regular');
    await addMember(deps, project.uuid, reader.id, 'readonly');
    return { owner, project, manager, regular, reader };
  }

  const CREATE = `mutation($p: ID) { createCheck(project: $p, input: { name: "job" }) { check { uuid } } }`;

  it('read-only members read checks but cannot write through any mutation, nor see what read-only keys cannot', async () => {
    const { project, regular, reader } = await team();
    const uuid = (await regular.browser.gql(CREATE, { p: project.uuid })).data.createCheck.check.uuid as string;
    const read = await reader.browser.gql(`query($p: ID) { project(id: $p) { role checks { nodes { name uuid } } } }`, { p: project.uuid });
    expect(read.data.project).toEqual({ role: 'READONLY', checks: { nodes: [{ name: 'job', uuid: null }] } });
    const attempts = [
      [CREATE, { p: project.uuid }],
      [`mutation($id: ID!) { pauseCheck(id: $id) { status } }`, { id: uuid }],
      [`mutation($id: ID!) { deleteCheck(id: $id) { name } }`, { id: uuid }],
      [`mutation($p: ID) { createChannel(project: $p, kind: EMAIL, value: "a@example.org") { uuid } }`, { p: project.uuid }],
      [`mutation($p: ID!) { createProjectKey(project: $p, kind: READ_WRITE) }`, { p: project.uuid }],
      [`mutation($p: ID!) { changeMemberRole(project: $p, account: "${regular.username}", role: READONLY) }`, { p: project.uuid }],
    ] as const;
    for (const [query, variables] of attempts) {
      const res = await reader.browser.gql(query, variables);
      expect(res.errors?.[0]?.extensions.code, query).toBe('FORBIDDEN');
    }
    expect(await w.app.db.check.count({ where: { projectId: project.uuid } })).toBe(1);
    expect((await w.app.db.check.findFirstOrThrow({ where: { projectId: project.uuid } })).status).toBe('new');
  });

  it('regular members manage checks and channels but not members or keys; managers do', async () => {
    const { project, regular, manager, reader } = await team();
    expect((await regular.browser.gql(CREATE, { p: project.uuid })).errors).toBeUndefined();
    const refused = await regular.browser.gql(`mutation($p: ID!) { changeMemberRole(project: $p, account: "${reader.username}", role: REGULAR) }`, { p: project.uuid });
    expect(refused.errors![0]).toMatchObject({ message: 'only the owner and managers can do this', extensions: { code: 'FORBIDDEN' } });
    expect((await regular.browser.gql(`mutation($p: ID!) { createProjectKey(project: $p, kind: PING) }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('FORBIDDEN');
    const changed = await manager.browser.gql(`mutation($p: ID!) { changeMemberRole(project: $p, account: "${reader.username}", role: REGULAR) }`, { p: project.uuid });
    expect(changed.data.changeMemberRole).toBe('REGULAR');
    expect((await manager.browser.gql(`mutation($p: ID!) { createProjectKey(project: $p, kind: PING) }`, { p: project.uuid })).data.createProjectKey).toMatch(/^[a-z0-9]{32}$/);
  });

  it('the owner cannot be removed or demoted; ownership moves by transfer, and then the old owner may leave', async () => {
    const { owner, project, manager, regular } = await team();
    expect((await manager.browser.gql(`mutation($p: ID!) { removeMember(project: $p, account: "${owner.username}") }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('CONFLICT');
    expect((await owner.browser.gql(`mutation($p: ID!) { leaveProject(project: $p) }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('CONFLICT');
    expect((await manager.browser.gql(`mutation($p: ID!) { transferOwnership(project: $p, account: "${regular.username}") }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect((await owner.browser.gql(`mutation($p: ID!) { transferOwnership(project: $p, account: "${regular.username}") }`, { p: project.uuid })).data.transferOwnership).toBe(true);
    const members = (await owner.browser.gql(`query($p: ID) { project(id: $p) { members { username role } } }`, { p: project.uuid })).data.project.members;
    expect(members.slice(0, 2)).toEqual([
      { username: regular.username, role: 'OWNER' },
      { username: owner.username, role: 'MANAGER' },
    ]);
    expect((await owner.browser.gql(`mutation($p: ID!) { leaveProject(project: $p) }`, { p: project.uuid })).data.leaveProject).toBe(true);
    expect((await owner.browser.gql(`query($p: ID) { project(id: $p) { name } }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('NOT_FOUND');
  });

  it('a removed member loses access at the next request, and the audit log says who did it', async () => {
    const { owner, project, regular } = await team();
    expect((await regular.browser.gql(`query($p: ID) { project(id: $p) { name } }`, { p: project.uuid })).data.project.name).toBe('Ops');
    expect((await owner.browser.gql(`mutation($p: ID!) { removeMember(project: $p, account: "${regular.username}") }`, { p: project.uuid })).data.removeMember).toBe(true);
    expect((await regular.browser.gql(`query($p: ID) { project(id: $p) { name } }`, { p: project.uuid })).errors![0]!.extensions.code).toBe('NOT_FOUND');
    const log = (await owner.browser.gql(`query($p: ID) { project(id: $p) { auditLog(first: 1) { nodes { actor action targetName detail } } } }`, { p: project.uuid })).data.project.auditLog.nodes;
    expect(log).toEqual([{ actor: owner.username, action: 'member.removed', targetName: regular.username, detail: '{"role":"regular"}' }]);
  });

  it('names the member who created, paused, resumed and deleted a check', async () => {
    const { owner, project, regular } = await team();
    const uuid = (await regular.browser.gql(CREATE, { p: project.uuid })).data.createCheck.check.uuid as string;
    for (const op of ['pauseCheck', 'resumeCheck']) await regular.browser.gql(`mutation($id: ID!) { ${op}(id: $id) { name } }`, { id: uuid });
    await owner.browser.gql(`mutation($id: ID!) { deleteCheck(id: $id) { name } }`, { id: uuid });
    const log = (await owner.browser.gql(`query($p: ID) { project(id: $p) { auditLog(first: 4) { nodes { actor action targetId targetName } } } }`, { p: project.uuid })).data.project.auditLog.nodes;
    expect(log).toEqual([
      { actor: owner.username, action: 'check.deleted', targetId: uuid, targetName: 'job' },
      { actor: regular.username, action: 'check.resumed', targetId: uuid, targetName: 'job' },
      { actor: regular.username, action: 'check.paused', targetId: uuid, targetName: 'job' },
      { actor: regular.username, action: 'check.created', targetId: uuid, targetName: 'job' },
    ]);
  });

  it('the audit log is for owners and managers only', async () => {
    const { project, regular } = await team();
    const res = await regular.browser.gql(`query($p: ID) { project(id: $p) { auditLog { nodes { action } } } }`, { p: project.uuid });
    expect(res.errors![0]!.extensions.code).toBe('FORBIDDEN');
  });
});

describe('open subscriptions', () => {
  function socketFor(browser: BrowserClient, origin = w.url) {
    const cookie = browser.cookieHeader();
    class CookieSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { Cookie: cookie, Origin: origin } });
      }
    }
    const c = createClient({ url: w.url.replace('http', 'ws') + '/graphql', webSocketImpl: CookieSocket, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  }

  function listen(c: Client, query: string, variables: Record<string, unknown>) {
    const results: any[] = [];
    let done = false;
    c.subscribe({ query, variables }, { next: (r) => void results.push(r), error: (e) => void results.push({ socketError: e }), complete: () => void (done = true) });
    return { results, done: () => done };
  }
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('deliver a member\'s project events over a cookie-authenticated socket, and end when the member is removed', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser);
    const member = await person();
    await addMember(membership(project.uuid), project.uuid, member.id, 'regular');
    const sub = listen(socketFor(member.browser), `subscription($p: ID) { checkChanged(project: $p) { change check { name } } }`, { p: project.uuid });
    await until(() => w.app.deps.events.listenerCount('checkChanged') > 0);
    await new Promise((r) => setTimeout(r, 50));
    await owner.browser.gql(`mutation($p: ID) { createCheck(project: $p, input: { name: "seen" }) { check { uuid } } }`, { p: project.uuid });
    await until(() => sub.results.length >= 1);
    expect(sub.results[0]).toEqual({ data: { checkChanged: { change: 'CREATED', check: { name: 'seen' } } } });
    await owner.browser.gql(`mutation($p: ID!) { removeMember(project: $p, account: "${member.username}") }`, { p: project.uuid });
    await until(() => sub.done());
    expect(sub.results[1]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(sub.done()).toBe(true);
    await owner.browser.gql(`mutation($p: ID) { createCheck(project: $p, input: { name: "unseen" }) { check { uuid } } }`, { p: project.uuid });
    await new Promise((r) => setTimeout(r, 50));
    expect(sub.results).toHaveLength(2);
  });

  it('are anonymous when the socket was opened from another site, whatever cookie it carries', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser);
    const sub = listen(socketFor(owner.browser, 'https://evil.example'), `subscription($p: ID) { flips(project: $p) { newStatus } }`, { p: project.uuid });
    await until(() => sub.results.length > 0 || sub.done());
    expect(JSON.stringify(sub.results[0])).toContain('missing api key');
  });

  it('end when the session is signed out everywhere', async () => {
    const owner = await person();
    const project = await ownedProject(owner.browser);
    const phone = browserClient(w);
    await phone.gql(SIGN_IN, { u: owner.username, p: 'correct horse battery' });
    const sub = listen(socketFor(phone), `subscription($p: ID) { flips(project: $p) { newStatus } }`, { p: project.uuid });
    await new Promise((r) => setTimeout(r, 100));
    await owner.browser.gql(`mutation { signOutEverywhere }`);
    await until(() => sub.done());
    expect(sub.results[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
