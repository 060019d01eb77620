// Campus authentication: scrypt password hashes, Slate-style session tokens (only their hashes
// stored), logins by username or email, who may log in, and script tokens.
import { describe, expect, it } from 'vitest';
import {
  anonymous,
  createScriptToken,
  createSession,
  endSession,
  hashPassword,
  login,
  sessionOf,
  verifyPassword,
  viewerFromToken,
  viewerOrAnonymous,
} from '../../src/campus/auth.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();

describe('password hashes', () => {
  it('verify the password they were made from and nothing else; each hash is salted', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('Correct horse', a)).toBe(false);
  });

  it('refuse a missing or foreign hash', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$abc$def')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$$')).toBe(false);
  });
});

describe('login and sessions', () => {
  const person = async (Username: string, AccountLevel: string, Email?: string) => {
    const staff = await viewerAt(w, 'Staff');
    return record(w, staff, 'Person', { FirstName: 'Test', LastName: 'Person', Username, AccountLevel, Password: 'open sesame', ...(Email ? { Email } : {}) });
  };

  it('logs in by username or email with the right password, and the token names the viewer', async () => {
    const ada = await person('ada', 'Student', 'ada@example.org');
    const byName = await login(w.app.db, 'ada', 'open sesame');
    expect(byName.person.ID).toBe(ada.ID);
    // Slate's session handle: 32 hex characters, the first a letter.
    expect(byName.token).toMatch(/^[a-f][0-9a-f]{31}$/);
    expect((await login(w.app.db, 'ada@example.org', 'open sesame')).person.ID).toBe(ada.ID);
    expect(await viewerFromToken(w.app.db, byName.token)).toEqual({ personId: ada.ID, level: 'Student' });
    // Only the hash is stored.
    expect(await w.app.db.campusSession.count({ where: { TokenHash: byName.token } })).toBe(0);
    expect(await sessionOf(w.app.db, byName.token)).toMatchObject({ ID: byName.session.ID, PersonID: ada.ID });
  });

  it('gives one message for a wrong password, an unknown name and an account that may not log in', async () => {
    await person('contact1', 'Contact');
    await person('gone', 'Disabled');
    for (const [name, password] of [['ada', 'wrong'], ['nobody', 'open sesame'], ['contact1', 'open sesame'], ['gone', 'open sesame'], ['ada\u0000', 'open sesame']]) {
      await expect(login(w.app.db, name!, password!), name).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'The username or password you entered was incorrect.' });
    }
  });

  it('an ended session, or one of a person since disabled, is refused by GraphQL and anonymous for Slate’s routes', async () => {
    const grace = await person('grace', 'User');
    const { token } = await createSession(w.app.db, grace.ID);
    expect(await viewerOrAnonymous(w.app.db, token)).toEqual({ personId: grace.ID, level: 'User' });
    await w.app.db.person.update({ where: { ID: grace.ID }, data: { AccountLevel: 'Disabled' } });
    await expect(viewerFromToken(w.app.db, token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'invalid or expired session token' });
    expect(await viewerOrAnonymous(w.app.db, token)).toEqual(anonymous);
    await w.app.db.person.update({ where: { ID: grace.ID }, data: { AccountLevel: 'User' } });
    await endSession(w.app.db, token);
    expect(await sessionOf(w.app.db, token)).toBeNull();
    expect(await viewerOrAnonymous(w.app.db, token)).toEqual(anonymous);
  });

  it('no token is anonymous', async () => {
    expect(await viewerFromToken(w.app.db, null)).toEqual(anonymous);
    expect(await viewerFromToken(w.app.db, '')).toEqual(anonymous);
  });
});

describe('createScriptToken', () => {
  it('makes a service account at the level, whose token works', async () => {
    const { token, person_id } = await createScriptToken(w.app.db, 'Teacher');
    expect(await viewerFromToken(w.app.db, token)).toEqual({ personId: person_id, level: 'Teacher' });
    expect(await w.app.db.person.findUniqueOrThrow({ where: { ID: person_id } })).toMatchObject({ FirstName: 'Service', LastName: 'Account', Class: 'Emergence\\People\\User' });
  });

  it('for an existing username, sets that person’s level', async () => {
    const staff = await viewerAt(w, 'Staff');
    const lin = await record(w, staff, 'Person', { FirstName: 'Lin', LastName: 'Chen', Username: 'lchen', AccountLevel: 'Student' });
    const { person_id } = await createScriptToken(w.app.db, 'Staff', 'lchen');
    expect(person_id).toBe(lin.ID);
    expect((await campusDeps(w).db.person.findUniqueOrThrow({ where: { ID: lin.ID } })).AccountLevel).toBe('Staff');
  });

  it('refuses a level that cannot log in and an unknown username', async () => {
    await expect(createScriptToken(w.app.db, 'Contact')).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'level must be one of User, Student, Staff, Teacher, Administrator, Developer',
    });
    await expect(createScriptToken(w.app.db, 'Wizard')).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(createScriptToken(w.app.db, 'Staff', 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'no person with username nobody' });
  });
});
