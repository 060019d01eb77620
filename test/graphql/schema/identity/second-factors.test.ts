// Second factors over GraphQL, for the person behind the session cookie, over real HTTP: the
// authenticator app set up and confirmed with a code computed at the world's clock, turning it
// off with the password again, recovery codes, security keys registered by the software
// authenticator for the world's own origin, and the cookie's rules (none, or a cross-site one,
// is not signed in).
import { describe, expect, it } from 'vitest';
import { Secret, TOTP, URI } from 'otpauth';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { openBrowserSession } from '../../../../src/identity/sessions.ts';
import { useRecoveryCode } from '../../../../src/identity/second-factors/index.ts';
import { sessionCookieName } from '../../../../src/http/session-cookie.ts';
import { useWorld } from '../../../helpers/fixtures.ts';
import type { GqlResult } from '../../../helpers/gql.ts';
import { SoftAuthenticator } from '../../../helpers/soft-authenticator.ts';

// Three wrong passwords per account and hour, so the throttle's test is short.
const w = useWorld({ RATE_LIMIT_LOGIN_ACCOUNT: '3/1h' });
const PASSWORD = 'correct horse battery';
const codeAt = (secret: string, d: Date) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: d.getTime() });

let people = 0;
/** A new account signed in through a browser session: its id, username and Cookie header. */
async function signedInPerson() {
  const n = ++people;
  const account = await createAccount(w.app.db, { username: `ada${n}`, email: `ada${n}@example.org`, password: PASSWORD });
  return { ...account, cookie: await sessionFor(account.id) };
}

async function sessionFor(personId: number) {
  const { token } = await openBrowserSession(w.app.db, w.app.services.identity.settings.sessions, { personId, now: w.clock.now() });
  return `${sessionCookieName(false)}=${token}`;
}

/** POST /graphql as a browser would, with the cookie (none when null) and any extra headers. */
async function gqlAs(cookie: string | null, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<GqlResult> {
  const res = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GqlResult;
}

const FACTORS = '{ secondFactors { totp recoveryCodesLeft securityKeys { id name createdAt lastUsedAt } } }';
const factorsOf = async (cookie: string) => (await gqlAs(cookie, FACTORS)).data!.secondFactors;

/** beginTotpSetup then confirmTotpSetup with the right code now; the secret and the recovery codes. */
async function withTotp(cookie: string) {
  const { secret } = (await gqlAs(cookie, 'mutation { beginTotpSetup(password: "correct horse battery") { secret } }')).data!.beginTotpSetup;
  const codes = (await gqlAs(cookie, 'mutation($c: String!) { confirmTotpSetup(code: $c) }', { c: codeAt(secret, w.clock.now()) })).data!.confirmTotpSetup;
  return { secret, codes: codes as string[] };
}

const origin = () => new URL(w.url).origin;

/** Registers `key` through beginSecurityKeySetup and finishSecurityKeySetup; the payload or the errors. */
async function registerKey(cookie: string, key: SoftAuthenticator, name = 'YubiKey', answerOrigin = origin()) {
  const options = JSON.parse((await gqlAs(cookie, 'mutation { beginSecurityKeySetup(password: "correct horse battery") }')).data!.beginSecurityKeySetup);
  const response = JSON.stringify(key.register(options, { origin: answerOrigin }));
  return gqlAs(cookie, 'mutation($n: String!, $r: String!) { finishSecurityKeySetup(name: $n, response: $r) { securityKey { id name createdAt lastUsedAt } recoveryCodes } }', {
    n: name,
    r: response,
  });
}

describe('the authenticator app over GraphQL', () => {
  it('starts with no factor, is set up with a code computed at the clock’s time, and returns recovery codes once', async () => {
    const ada = await signedInPerson();
    expect(await factorsOf(ada.cookie)).toEqual({ totp: false, recoveryCodesLeft: 0, securityKeys: [] });

    const setup = (await gqlAs(ada.cookie, 'mutation { beginTotpSetup(password: "correct horse battery") { secret uri } }')).data!.beginTotpSetup;
    const parsed = URI.parse(setup.uri) as TOTP;
    expect(parsed).toMatchObject({ issuer: w.app.services.identity.settings.siteName, label: ada.username, digits: 6, period: 30 });
    expect(parsed.secret.base32).toBe(setup.secret);
    expect((await factorsOf(ada.cookie)).totp).toBe(false); // not before a first code

    // A code from 90 s ahead (a phone with a wrong clock) is refused and confirms nothing.
    const wrong = await gqlAs(ada.cookie, 'mutation($c: String!) { confirmTotpSetup(code: $c) }', { c: codeAt(setup.secret, new Date(w.clock.now().getTime() + 90_000)) });
    expect(wrong.errors![0]).toMatchObject({ message: 'the code is not right; check the clock of your device', extensions: { code: 'BAD_USER_INPUT' } });

    const codes = (await gqlAs(ada.cookie, 'mutation($c: String!) { confirmTotpSetup(code: $c) }', { c: codeAt(setup.secret, w.clock.now()) })).data!.confirmTotpSetup;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await factorsOf(ada.cookie)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect(await w.app.db.totpFactor.findUnique({ where: { personId: ada.id } })).toMatchObject({ confirmedAt: w.clock.now() });
    // Confirmed once: a second confirmation is a conflict, not a second batch of codes.
    const again = await gqlAs(ada.cookie, 'mutation($c: String!) { confirmTotpSetup(code: $c) }', { c: codeAt(setup.secret, w.clock.now()) });
    expect(again.errors![0]!.extensions!.code).toBe('CONFLICT');
  });

  it('is turned off only with the right password; its recovery codes go with it and other sessions stay', async () => {
    const ada = await signedInPerson();
    const otherBrowser = await sessionFor(ada.id);
    await withTotp(ada.cookie);

    const wrong = await gqlAs(ada.cookie, 'mutation($p: String!) { disableTotp(password: $p) }', { p: 'not the password' });
    expect(wrong.errors![0]).toMatchObject({ message: 'the password is not right', extensions: { code: 'UNAUTHENTICATED' } });
    expect(wrong.data).toBeNull();
    expect(await factorsOf(ada.cookie)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });

    const right = await gqlAs(ada.cookie, 'mutation($p: String!) { disableTotp(password: $p) }', { p: PASSWORD });
    expect(right).toEqual({ data: { disableTotp: true } });
    expect(await factorsOf(ada.cookie)).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect(await w.app.db.totpFactor.count({ where: { personId: ada.id } })).toBe(0);
    // Neither this browser nor the other was signed out.
    expect((await gqlAs(otherBrowser, FACTORS)).errors).toBeUndefined();
    expect(await w.app.db.campusSession.count({ where: { PersonID: ada.id } })).toBe(2);
  });

  it('regenerates recovery codes with the password; the old ones stop working', async () => {
    const ada = await signedInPerson();
    const { codes: old } = await withTotp(ada.cookie);

    const wrong = await gqlAs(ada.cookie, 'mutation($p: String!) { regenerateRecoveryCodes(password: $p) }', { p: 'nope nope nope' });
    expect(wrong.errors![0]).toMatchObject({ message: 'the password is not right', extensions: { code: 'UNAUTHENTICATED' } });

    const fresh = (await gqlAs(ada.cookie, 'mutation($p: String!) { regenerateRecoveryCodes(password: $p) }', { p: PASSWORD })).data!.regenerateRecoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c: string) => old.includes(c))).toEqual([]);
    expect(await useRecoveryCode(w.app.db, ada.id, old[0]!, w.clock.now())).toBe(false);
    expect(await useRecoveryCode(w.app.db, ada.id, fresh[0], w.clock.now())).toBe(true);
    expect((await factorsOf(ada.cookie)).recoveryCodesLeft).toBe(9);
  });

  it('counts wrong passwords like sign-ins: after three, even the right one waits', async () => {
    const ada = await signedInPerson();
    await withTotp(ada.cookie);
    for (let i = 0; i < 3; i++) {
      const wrong = await gqlAs(ada.cookie, 'mutation($p: String!) { disableTotp(password: $p) }', { p: `guess ${i} guess` });
      expect(wrong.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    }
    const limited = await gqlAs(ada.cookie, 'mutation($p: String!) { disableTotp(password: $p) }', { p: PASSWORD });
    expect(limited.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect((await factorsOf(ada.cookie)).totp).toBe(true);
  });
});

describe('security keys over GraphQL', () => {
  it('registers a key for this site, lists it, renames it and removes it with the password', async () => {
    const ada = await signedInPerson();
    const key = new SoftAuthenticator();
    const options = JSON.parse((await gqlAs(ada.cookie, 'mutation { beginSecurityKeySetup(password: "correct horse battery") }')).data!.beginSecurityKeySetup);
    // The relying party is SITE_ROOT: its hostname, the site's name; the person by username.
    expect(options).toMatchObject({ rp: { id: new URL(w.url).hostname, name: w.app.services.identity.settings.siteName }, user: { name: ada.username }, excludeCredentials: [] });

    const finished = await gqlAs(ada.cookie, 'mutation($n: String!, $r: String!) { finishSecurityKeySetup(name: $n, response: $r) { securityKey { id name createdAt lastUsedAt } recoveryCodes } }', {
      n: ' Blue key ',
      r: JSON.stringify(key.register(options, { origin: origin() })),
    });
    expect(finished.errors).toBeUndefined();
    const { securityKey, recoveryCodes } = finished.data!.finishSecurityKeySetup;
    expect(securityKey).toEqual({ id: expect.any(Number), name: 'Blue key', createdAt: expect.any(String), lastUsedAt: null });
    // The first factor: recovery codes come with it, shown once.
    expect(recoveryCodes).toHaveLength(10);
    expect(await w.app.db.securityKey.findUnique({ where: { id: securityKey.id } })).toMatchObject({ personId: ada.id, credentialId: key.id });
    expect(await factorsOf(ada.cookie)).toEqual({ totp: false, recoveryCodesLeft: 10, securityKeys: [securityKey] });

    // A second key while codes are left: no new codes.
    const second = await registerKey(ada.cookie, new SoftAuthenticator(), 'Spare');
    expect(second.data!.finishSecurityKeySetup).toMatchObject({ securityKey: { name: 'Spare' }, recoveryCodes: null });

    const renamed = await gqlAs(ada.cookie, 'mutation($id: Int!, $n: String!) { renameSecurityKey(id: $id, name: $n) { id name createdAt } }', { id: securityKey.id, n: 'Red key' });
    expect(renamed.data!.renameSecurityKey).toEqual({ id: securityKey.id, name: 'Red key', createdAt: securityKey.createdAt });
    const blank = await gqlAs(ada.cookie, 'mutation($id: Int!, $n: String!) { renameSecurityKey(id: $id, name: $n) { id } }', { id: securityKey.id, n: '  ' });
    expect(blank.errors![0]).toMatchObject({ message: 'give the security key a name', extensions: { code: 'BAD_USER_INPUT' } });

    const remove = 'mutation($id: Int!, $p: String!) { removeSecurityKey(id: $id, password: $p) }';
    const wrong = await gqlAs(ada.cookie, remove, { id: securityKey.id, p: 'not the password' });
    expect(wrong.errors![0]).toMatchObject({ message: 'the password is not right', extensions: { code: 'UNAUTHENTICATED' } });
    expect((await factorsOf(ada.cookie)).securityKeys).toHaveLength(2);
    expect(await gqlAs(ada.cookie, remove, { id: securityKey.id, p: PASSWORD })).toEqual({ data: { removeSecurityKey: true } });
    expect((await factorsOf(ada.cookie)).securityKeys.map((k: { name: string }) => k.name)).toEqual(['Spare']);
    // The last one: the recovery codes go with it.
    await gqlAs(ada.cookie, remove, { id: second.data!.finishSecurityKeySetup.securityKey.id, p: PASSWORD });
    expect(await factorsOf(ada.cookie)).toEqual({ totp: false, recoveryCodesLeft: 0, securityKeys: [] });
  });

  it('issues recovery codes with a key when the person has none left', async () => {
    const ada = await signedInPerson();
    const { codes } = await withTotp(ada.cookie);
    for (const code of codes) await useRecoveryCode(w.app.db, ada.id, code, w.clock.now());
    const r = await registerKey(ada.cookie, new SoftAuthenticator());
    expect(r.data!.finishSecurityKeySetup.recoveryCodes).toHaveLength(10);
    expect((await factorsOf(ada.cookie)).recoveryCodesLeft).toBe(10);
  });

  it('refuses an answer made for another origin, or not JSON, and stores nothing', async () => {
    const ada = await signedInPerson();
    const phished = await registerKey(ada.cookie, new SoftAuthenticator(), 'YubiKey', 'https://evil.example');
    expect(phished.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(phished.errors![0]!.message).toMatch(/^the security key's answer could not be verified/);
    const garbage = await gqlAs(ada.cookie, 'mutation { finishSecurityKeySetup(name: "x", response: "{nope") { recoveryCodes } }');
    expect(garbage.errors![0]).toMatchObject({ message: "the security key's answer is not JSON", extensions: { code: 'BAD_USER_INPUT' } });
    expect(await w.app.db.securityKey.count({ where: { personId: ada.id } })).toBe(0);
  });

  it("does not show, rename or remove another person's key", async () => {
    const ada = await signedInPerson();
    const bea = await signedInPerson();
    const { securityKey } = (await registerKey(ada.cookie, new SoftAuthenticator())).data!.finishSecurityKeySetup;
    expect((await factorsOf(bea.cookie)).securityKeys).toEqual([]);
    const rename = await gqlAs(bea.cookie, 'mutation($id: Int!) { renameSecurityKey(id: $id, name: "mine") { id } }', { id: securityKey.id });
    expect(rename.errors![0]).toMatchObject({ message: 'security key not found', extensions: { code: 'NOT_FOUND' } });
    const remove = await gqlAs(bea.cookie, 'mutation($id: Int!, $p: String!) { removeSecurityKey(id: $id, password: $p) }', { id: securityKey.id, p: PASSWORD });
    expect(remove.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await factorsOf(ada.cookie)).securityKeys).toEqual([securityKey]);
  });
});

describe('who may manage second factors', () => {
  const fields = [
    FACTORS,
    'mutation { beginTotpSetup(password: "correct horse battery") { secret } }',
    'mutation { confirmTotpSetup(code: "123456") }',
    'mutation { disableTotp(password: "x") }',
    'mutation { regenerateRecoveryCodes(password: "x") }',
    'mutation { beginSecurityKeySetup(password: "correct horse battery") }',
    'mutation { finishSecurityKeySetup(name: "x", response: "{}") { recoveryCodes } }',
    'mutation { renameSecurityKey(id: 1, name: "x") { id } }',
    'mutation { removeSecurityKey(id: 1, password: "x") }',
  ];

  it('nobody without a session cookie', async () => {
    for (const query of fields) {
      const r = await gqlAs(null, query);
      expect(r.errors![0], query).toMatchObject({ message: 'sign in first', extensions: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('nobody whose cookie comes with a cross-site request', async () => {
    const ada = await signedInPerson();
    expect((await gqlAs(ada.cookie, FACTORS, {}, { Origin: origin() })).errors).toBeUndefined();
    const crossSite: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }];
    for (const headers of crossSite) {
      const r = await gqlAs(ada.cookie, 'mutation { beginTotpSetup(password: "correct horse battery") { secret } }', {}, headers);
      expect(r.errors![0]).toMatchObject({ message: 'sign in first', extensions: { code: 'UNAUTHENTICATED' } });
    }
    expect(await w.app.db.totpFactor.count({ where: { personId: ada.id } })).toBe(0);
  });

  it('not an API key, even with a cookie beside it: the key decides', async () => {
    const ada = await signedInPerson();
    const r = await gqlAs(ada.cookie, FACTORS, {}, { 'X-Api-Key': w.alice.api_key });
    expect(r.errors![0]).toMatchObject({ message: 'sign in first', extensions: { code: 'UNAUTHENTICATED' } });
  });
});
