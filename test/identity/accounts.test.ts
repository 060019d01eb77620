// Accounts are campus people with a login: the rules a new account and a new password obey, and
// how a login (username or email address, any case) finds its person.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { accountByLogin, accountEmail, createAccount, setPassword } from '../../src/identity/accounts.ts';
import { verifyPassword } from '../../src/identity/passwords.ts';
import { DomainError } from '../../src/shared/errors.ts';

const w = useWorld();
const PASSWORD = 'long enough';

async function refusal(promise: Promise<unknown>) {
  const err = await promise.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return { code: (err as DomainError).code, message: (err as DomainError).message };
}

describe('createAccount', () => {
  it('refuses bad input with a message that says what to change, storing nothing', async () => {
    await createAccount(w.app.db, { username: 'alice', email: 'Alice@Example.org', password: PASSWORD });
    const before = [await w.app.db.person.count(), await w.app.db.contactPoint.count()];
    const cases: Array<[Parameters<typeof createAccount>[1], { code: string; message: string | RegExp }]> = [
      [{ username: 'alice', email: 'other@example.org', password: PASSWORD }, { code: 'CONFLICT', message: 'that username is taken' }],
      [{ username: 'carol', email: 'ALICE@example.org', password: PASSWORD }, { code: 'CONFLICT', message: 'an account with that email address exists' }],
      [{ username: 'carol', email: 'carol@example.org', password: 'short' }, { code: 'VALIDATION', message: 'the password must be at least 8 characters' }],
      [{ username: 'carol', email: 'carol@example.org', password: PASSWORD, level: 'Contact' }, { code: 'VALIDATION', message: 'level must be one of User, Student, Staff, Teacher, Administrator, Developer' }],
      [{ username: 'carol', email: 'carol@example', password: PASSWORD }, { code: 'VALIDATION', message: 'enter a valid email address' }],
      [{ username: 'carol', email: 'carol\0@example.org', password: PASSWORD }, { code: 'VALIDATION', message: 'enter a valid email address' }],
      [{ username: '-carol', email: 'carol@example.org', password: PASSWORD }, { code: 'VALIDATION', message: /^the username must be/ }],
    ];
    for (const [input, expected] of cases) {
      const got = await refusal(createAccount(w.app.db, input));
      expect(got.code, JSON.stringify(input)).toBe(expected.code);
      expect(got.message, JSON.stringify(input)).toMatch(expected.message);
    }
    expect([await w.app.db.person.count(), await w.app.db.contactPoint.count()]).toEqual(before);
  });

  it('stores the address lower-cased as the primary email contact point, and finds the account by either login in any case', async () => {
    const a = await createAccount(w.app.db, { username: 'dora', email: 'Dora@Example.org', password: PASSWORD, level: 'Teacher' });
    expect(a).toEqual({ id: a.id, username: 'dora', email: 'dora@example.org', level: 'Teacher' });
    expect(await accountEmail(w.app.db, a.id)).toBe('dora@example.org');
    for (const login of ['dora', ' dora ', 'dora@example.org', 'DORA@EXAMPLE.ORG']) expect((await accountByLogin(w.app.db, login))?.ID, login).toBe(a.id);
    await w.app.db.person.update({ where: { ID: a.id }, data: { AccountLevel: 'Contact' } });
    expect(await accountByLogin(w.app.db, 'dora')).toBeNull();
  });
});

describe('setPassword', () => {
  it('keeps the rules and stores a hash that verifies', async () => {
    const a = await createAccount(w.app.db, { username: 'erin', email: 'erin@example.org', password: PASSWORD });
    expect(await refusal(setPassword(w.app.db, a.id, 'short'))).toEqual({ code: 'VALIDATION', message: 'the password must be at least 8 characters' });
    await setPassword(w.app.db, a.id, 'a brand new one');
    const stored = (await w.app.db.person.findUniqueOrThrow({ where: { ID: a.id } })).PasswordHash;
    expect(await verifyPassword('a brand new one', stored)).toBe(true);
    expect(await verifyPassword(PASSWORD, stored)).toBe(false);
  });
});
