// Signing in to the dashboard over GraphQL: the cookie, the viewer, the CSRF rule, session
// lifetimes and revocation, and one identity for the dashboard and the campus API.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../../helpers/fixtures.ts';
import { browserClient } from '../../../helpers/browser-client.ts';
import { campusGql, gql } from '../../../helpers/gql.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { addMember } from '../../../../src/identity/memberships.ts';

const w = useWorld();

const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username person { username } projects { role project { uuid name } } } }`;
const VIEWER = `{ viewer { username accountLevel email projects { role project { uuid name } } } }`;

let n = 0;
async function account(level = 'Staff') {
  n++;
  const username = `person${n}`;
  const created = await createAccount(w.app.db, { username, email: `Person${n}@Example.org`, password: 'correct horse battery', level });
  return { ...created, password: 'correct horse battery' };
}

describe('signIn', () => {
  it('signs in with a username, sets an HttpOnly SameSite=Lax cookie, and returns the viewer with their projects and roles', async () => {
    const a = await account();
    await addMember({ db: w.app.db, events: w.app.deps.events, clock: w.clock }, w.alice.id, a.id, 'readonly');
    const browser = browserClient(w);
    const res = await browser.gql(SIGN_IN, { u: a.username, p: a.password });
    expect(res.errors).toBeUndefined();
    expect(res.data.signIn).toEqual({ username: a.username, person: { username: a.username }, projects: [{ role: 'READONLY', project: { uuid: w.alice.id, name: 'Alice' } }] });
    const cookie = res.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^gateway_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    expect((await browser.gql(VIEWER)).data.viewer).toEqual({ username: a.username, accountLevel: 'Staff', email: `person${n}@example.org`, projects: [{ role: 'READONLY', project: { uuid: w.alice.id, name: 'Alice' } }] });
  });

  it('takes the email address in any case instead of the username', async () => {
    const a = await account();
    const res = await browserClient(w).gql(SIGN_IN, { u: a.email!.toUpperCase(), p: a.password });
    expect(res.data?.signIn.username).toBe(a.username);
  });

  it('answers an unknown name and a wrong password alike, and sets no cookie', async () => {
    const a = await account();
    const wrong = await browserClient(w).gql(SIGN_IN, { u: a.username, p: 'not the password' });
    const unknown = await browserClient(w).gql(SIGN_IN, { u: 'nobody-here', p: 'not the password' });
    expect(wrong.errors).toEqual(unknown.errors);
    expect(wrong.errors![0]).toMatchObject({ message: 'The username or password you entered was incorrect.', extensions: { code: 'UNAUTHENTICATED' } });
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('refuses Contact and Disabled people, who have no login', async () => {
    const a = await account();
    await w.app.db.person.update({ where: { ID: a.id }, data: { AccountLevel: 'Disabled' } });
    expect((await browserClient(w).gql(SIGN_IN, { u: a.username, p: a.password })).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('gives a new session id at every sign-in and ends the one the browser held (no fixation)', async () => {
    const a = await account();
    const browser = browserClient(w);
    await browser.gql(SIGN_IN, { u: a.username, p: a.password });
    const first = browser.cookieHeader();
    await browser.gql(SIGN_IN, { u: a.username, p: a.password });
    expect(browser.cookieHeader()).not.toBe(first);
    const stale = await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: first }, body: JSON.stringify({ query: VIEWER }) });
    expect((await stale.json()).data.viewer).toBeNull();
    expect(await w.app.db.campusSession.count({ where: { PersonID: a.id, Kind: 'browser' } })).toBe(1);
  });

  it('marks the cookie Secure with the __Host- prefix when SITE_ROOT is https', async () => {
    const { sessionCookie } = await import('../../../../src/http/session-cookie.ts');
    expect(sessionCookie('abc', true, 60)).toBe('__Host-gateway_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure');
  });
});

describe('the session cookie', () => {
  async function signedIn(level = 'Staff') {
    const a = await account(level);
    await addMember({ db: w.app.db, events: w.app.deps.events, clock: w.clock }, w.alice.id, a.id, 'regular');
    const browser = browserClient(w);
    await browser.gql(SIGN_IN, { u: a.username, p: a.password });
    return { a, browser };
  }

  it('reaches the person\'s projects by id, and no other', async () => {
    const { browser } = await signedIn();
    const mine = await browser.gql(`query($id: ID) { project(id: $id) { name role } }`, { id: w.alice.id });
    expect(mine.data.project).toEqual({ name: 'Alice', role: 'REGULAR' });
    const other = await browser.gql(`query($id: ID) { project(id: $id) { name } }`, { id: w.bob.id });
    expect(other.errors![0]).toMatchObject({ message: 'project not found', extensions: { code: 'NOT_FOUND' } });
    const none = await browser.gql(`{ project { name } }`);
    expect(none.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('creates, pauses and deletes checks with the role\'s rights', async () => {
    const { browser } = await signedIn();
    const created = await browser.gql(`mutation($p: ID) { createCheck(project: $p, input: { name: "nightly" }) { check { uuid name } } }`, { p: w.alice.id });
    const uuid = created.data.createCheck.check.uuid as string;
    expect((await browser.gql(`mutation($id: ID!) { pauseCheck(id: $id) { status } }`, { id: uuid })).data.pauseCheck.status).toBe('PAUSED');
    const bobs = await w.api('POST', '/api/v3/checks/', { key: w.bob.api_key, body: { name: 'bob' } });
    const refused = await browser.gql(`mutation($id: ID!) { pauseCheck(id: $id) { status } }`, { id: bobs.json.uuid });
    expect(refused.errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect((await w.api('GET', `/api/v3/checks/${bobs.json.uuid}`, { key: w.bob.api_key })).json.status).toBe('new');
  });

  it('is ignored on a request from another site (CSRF): the request stays anonymous and changes nothing', async () => {
    const { browser } = await signedIn();
    // A form's body (what a cross-site page can send without a preflight) is never GraphQL here.
    const form = await browser.gql(`mutation($p: ID) { createCheck(project: $p, input: { name: "csrf" }) { check { uuid } } }`, { p: w.alice.id }, { 'Content-Type': 'text/plain' });
    expect(form.status).toBe(415);
    for (const headers of [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }]) {
      const res = await browser.gql(`mutation($p: ID) { createCheck(project: $p, input: { name: "csrf" }) { check { uuid } } }`, { p: w.alice.id }, headers);
      // Treated as a request without the cookie: anonymous, so refused as one without a key.
      expect({ status: res.status, error: res.errors?.[0]?.message }, JSON.stringify(headers)).toEqual({ status: 200, error: 'missing api key' });
      expect(res.data?.createCheck ?? null).toBeNull();
    }
    expect(await w.app.db.check.count({ where: { name: 'csrf' } })).toBe(0);
    expect((await browser.gql(VIEWER, {}, { Origin: 'https://evil.example' })).data.viewer).toBeNull();
  });

  it('is not accepted by the Management API, which stays key-only', async () => {
    const { browser } = await signedIn();
    const res = await fetch(`${w.url}/api/v3/checks/`, { headers: { Cookie: browser.cookieHeader() } });
    expect(res.status).toBe(401);
  });

  it('makes the person the campus viewer: one identity for both services', async () => {
    const { a, browser } = await signedIn('Staff');
    const res = await browser.gql(`{ person(handle: "${a.username}") { username accountLevel } }`);
    expect(res.data.person).toEqual({ username: a.username, accountLevel: 'Staff' });
  });

  it('ends after the idle lifetime and after the absolute one', async () => {
    const { browser } = await signedIn();
    w.clock.advance(13 * 86_400_000);
    expect((await browser.gql(VIEWER)).data.viewer).not.toBeNull();
    w.clock.advance(13 * 86_400_000);
    expect((await browser.gql(VIEWER)).data.viewer).not.toBeNull();
    w.clock.advance(5 * 86_400_000); // 31 days after sign-in, though never idle for 14
    expect((await browser.gql(VIEWER)).data.viewer).toBeNull();
    const idle = await signedIn();
    w.clock.advance(14 * 86_400_000 + 1000);
    expect((await idle.browser.gql(VIEWER)).data.viewer).toBeNull();
  });

  it('lists the person\'s sessions; signOutEverywhere ends the others, endSession one, signOut this one', async () => {
    const { a, browser } = await signedIn();
    const other = browserClient(w);
    await other.gql(SIGN_IN, { u: a.username, p: a.password });
    const third = browserClient(w);
    await third.gql(SIGN_IN, { u: a.username, p: a.password });
    const sessions = (await browser.gql(`{ viewer { sessions { id kind current userAgent } } }`)).data.viewer.sessions;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const otherId = (await other.gql(`{ viewer { sessions { id current } } }`)).data.viewer.sessions.find((s: { current: boolean }) => s.current).id;
    expect((await browser.gql(`mutation($id: Int!) { endSession(id: $id) }`, { id: otherId })).data.endSession).toBe(true);
    expect((await other.gql(VIEWER)).data.viewer).toBeNull();
    expect((await browser.gql(`mutation { signOutEverywhere }`)).data.signOutEverywhere).toBe(1);
    expect((await third.gql(VIEWER)).data.viewer).toBeNull();
    expect((await browser.gql(VIEWER)).data.viewer).not.toBeNull();
    const out = await browser.gql(`mutation { signOut }`);
    expect(out.headers.getSetCookie()[0]).toMatch(/^gateway_session=; .*Max-Age=0/);
    expect(browser.cookies.size).toBe(0);
    expect(await w.app.db.campusSession.count({ where: { PersonID: a.id } })).toBe(0);
  });

  it('cannot end another person\'s session', async () => {
    const { browser } = await signedIn();
    const { browser: theirs } = await signedIn();
    const theirId = (await theirs.gql(`{ viewer { sessions { id } } }`)).data.viewer.sessions[0].id;
    expect((await browser.gql(`mutation($id: Int!) { endSession(id: $id) }`, { id: theirId })).errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect((await theirs.gql(VIEWER)).data.viewer).not.toBeNull();
  });

  it('the same account logs in to the campus API (Slate\'s POST /login) with the same password', async () => {
    const a = await account('Teacher');
    const res = await w.campus('POST', '/login', { fields: { '_LOGIN[username]': a.username, '_LOGIN[password]': a.password } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: { Class: 'UserSession', PersonID: a.id } });
  });

  it('is never a campus API token, and a campus token is no cookie', async () => {
    const { browser } = await signedIn();
    const token = browser.cookies.get('gateway_session')!;
    const asToken = await campusGql(w, `{ person(handle: "nobody") { username } }`, {}, token);
    expect(asToken.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    const campus = await w.campusToken('Staff');
    const asCookie = await fetch(`${w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: `gateway_session=${campus.token}` }, body: JSON.stringify({ query: VIEWER }) });
    expect((await asCookie.json()).data.viewer).toBeNull();
  });

  it('leaves API-key callers as they were: the key decides when both are sent', async () => {
    const { browser } = await signedIn();
    const res = await browser.gql(`{ project { name } }`, {}, { 'X-Api-Key': w.bob.api_key });
    expect(res.data.project.name).toBe('Bob');
    expect((await gql(w, `{ viewer { username } }`)).data.viewer).toBeNull();
  });
});
