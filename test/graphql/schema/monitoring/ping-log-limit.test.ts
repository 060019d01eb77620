// Mutation.setPingLogLimit: owners and managers set how many pings the API lists per check,
// 1 to 1000; everyone else is FORBIDDEN (API keys act as regular members). The change is in
// the audit log, and the ping lists follow it.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../../helpers/fixtures.ts';
import { browserClient, type BrowserClient } from '../../../helpers/browser-client.ts';
import { gql } from '../../../helpers/gql.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { addMember } from '../../../../src/identity/memberships.ts';
import { rotateKey } from '../../../../src/monitoring/projects/service.ts';

const w = useWorld();

const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }`;
const SET = `mutation($p: ID!, $l: Int!) { setPingLogLimit(project: $p, limit: $l) { uuid pingLogLimit } }`;
const LOG = `query($p: ID) { project(id: $p) { auditLog { nodes { actor action targetKind targetId targetName detail } } } }`;

let n = 0;
async function person(): Promise<{ id: number; username: string; browser: BrowserClient }> {
  n++;
  const a = await createAccount(w.app.db, { username: `limiter${n}`, email: `limiter${n}@example.org`, password: 'correct horse battery', level: 'User' });
  const browser = browserClient(w);
  await browser.gql(SIGN_IN, { u: a.username, p: 'correct horse battery' });
  return { id: a.id, username: a.username, browser };
}

type Person = Awaited<ReturnType<typeof person>>;
/** The same four people in every test (accounts are slow to make: password hashing). */
let people: { owner: Person; manager: Person; regular: Person; reader: Person } | undefined;

/** A new project of the owner's, with a manager, a regular and a read-only member. */
async function team() {
  people ??= { owner: await person(), manager: await person(), regular: await person(), reader: await person() };
  const { owner, manager, regular, reader } = people;
  const project = (await owner.browser.gql(`mutation { createProject(name: "Limits") { uuid } }`)).data.createProject.uuid as string;
  const deps = { db: w.app.db, events: w.app.deps.events, clock: w.clock };
  await addMember(deps, project, manager.id, 'manager');
  await addMember(deps, project, regular.id, 'regular');
  await addMember(deps, project, reader.id, 'readonly');
  return { ...people, project };
}

const stored = async (project: string) => (await w.app.db.project.findUniqueOrThrow({ where: { id: project } })).pingLogLimit;
const limitEntries = (project: string) => w.app.db.auditEntry.count({ where: { projectId: project, action: 'project.ping_log_limit_changed' } });

describe('setPingLogLimit', () => {
  it('lets the owner and managers set it, returns the project, and records who changed it from what to what', async () => {
    const { owner, manager, project } = await team();
    w.clock.set('2026-01-05T10:00:00Z');
    expect(await owner.browser.gql(SET, { p: project, l: 500 })).toMatchObject({ data: { setPingLogLimit: { uuid: project, pingLogLimit: 500 } } });
    expect(await stored(project)).toBe(500);
    w.clock.set('2026-01-05T11:00:00Z');
    expect((await manager.browser.gql(SET, { p: project, l: 1000 })).data.setPingLogLimit.pingLogLimit).toBe(1000);
    expect(await stored(project)).toBe(1000);

    const log = (await owner.browser.gql(LOG, { p: project })).data.project.auditLog.nodes;
    expect(log.slice(0, 2)).toEqual([
      { actor: manager.username, action: 'project.ping_log_limit_changed', targetKind: 'project', targetId: project, targetName: 'Limits', detail: '{"from":500,"to":1000}' },
      { actor: owner.username, action: 'project.ping_log_limit_changed', targetKind: 'project', targetId: project, targetName: 'Limits', detail: '{"from":100,"to":500}' },
    ]);
    const at = await w.app.db.auditEntry.findMany({ where: { projectId: project, action: 'project.ping_log_limit_changed' }, orderBy: { id: 'asc' }, select: { at: true } });
    expect(at.map((e) => e.at.toISOString())).toEqual(['2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z']);
  });

  it('records nothing when the limit is already that', async () => {
    const { owner, project } = await team();
    expect((await owner.browser.gql(SET, { p: project, l: 100 })).data.setPingLogLimit.pingLogLimit).toBe(100);
    expect(await limitEntries(project)).toBe(0);
  });

  it('refuses regular and read-only members and API keys with FORBIDDEN, and changes nothing', async () => {
    const { project, regular, reader } = await team();
    for (const who of [regular, reader]) {
      const r = await who.browser.gql(SET, { p: project, l: 7 });
      expect(r.data).toBeNull();
      expect(r.errors).toEqual([expect.objectContaining({ message: 'only the owner and managers can do this', extensions: { code: 'FORBIDDEN' } })]);
    }
    // A read-write key acts as a regular member: the role decides, not the key's rights.
    const key = await rotateKey(w.app.db, project, 'api_key');
    const byKey = await gql(w, SET, { p: project, l: 7 }, key);
    expect(byKey.errors).toEqual([expect.objectContaining({ message: 'only the owner and managers can do this', extensions: { code: 'FORBIDDEN' } })]);
    // Another project's id from a key: not there at all.
    const other = await gql(w, SET, { p: w.bob.id, l: 7 }, w.alice.api_key);
    expect(other.errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect(await stored(project)).toBe(100);
    expect(await stored(w.bob.id)).toBe(100);
    expect(await limitEntries(project)).toBe(0);
  });

  it('takes 1 to 1000; outside that, BAD_USER_INPUT with a sentence that says so', async () => {
    const { owner, project } = await team();
    for (const l of [0, 1001, -5]) {
      const r = await owner.browser.gql(SET, { p: project, l });
      expect(r.errors).toEqual([expect.objectContaining({ message: 'ping log limit must be an integer from 1 to 1000', extensions: { code: 'BAD_USER_INPUT' } })]);
    }
    expect(await stored(project)).toBe(100);
    expect((await owner.browser.gql(SET, { p: project, l: 1 })).data.setPingLogLimit.pingLogLimit).toBe(1);
    expect(await limitEntries(project)).toBe(1);
  });

  it('caps the ping lists from then on', async () => {
    const { owner, project } = await team();
    const key = await rotateKey(w.app.db, project, 'api_key');
    const check = await w.api('POST', '/api/v3/checks/', { key, body: { name: 'busy' } });
    for (let i = 0; i < 3; i++) await w.ping(`/ping/${check.json.uuid}`);
    const pings = async () => (await gql(w, `query($id: ID!) { check(id: $id) { pings { n } } }`, { id: check.json.uuid }, key)).data.check.pings;
    expect(await pings()).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    await owner.browser.gql(SET, { p: project, l: 2 });
    expect(await pings()).toEqual([{ n: 3 }, { n: 2 }]);
  });
});
