// Security keys: registration and sign-in ceremonies verified end to end against a software
// authenticator (real ES256 signatures, CBOR, client data), challenges that work once and
// expire, the counter that exposes a cloned key, and managing the keys.
import { describe, expect, it } from 'vitest';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  beginKeyAuthentication,
  beginKeyRegistration,
  finishKeyAuthentication,
  finishKeyRegistration,
  listSecurityKeys,
  removeSecurityKey,
  renameSecurityKey,
  type RelyingParty,
} from '../../../src/identity/second-factors/webauthn.ts';
import { hashSecret } from '../../../src/identity/tokens.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.ts';
import { newPerson } from './people.ts';

const w = useWorld();
const rp: RelyingParty = { id: 'gateway.example', name: 'Gateway', origin: 'https://gateway.example' };
const T = new Date('2026-01-05T10:00:00Z');
const at = (seconds: number) => new Date(T.getTime() + seconds * 1000);

/** A person with `key` registered at T. */
async function withKey(key = new SoftAuthenticator(), name = 'YubiKey') {
  const person = await newPerson(w.app.db);
  const options = await beginKeyRegistration(w.app.db, person, rp, T);
  const saved = await finishKeyRegistration(w.app.db, person.ID, name, key.register(options), rp, at(10));
  return { person, key, saved };
}

async function signIn(personId: number, key: SoftAuthenticator, now = at(60), overrides = {}) {
  const options = await beginKeyAuthentication(w.app.db, personId, rp, now);
  return finishKeyAuthentication(w.app.db, personId, key.authenticate(options, overrides), rp, now);
}

describe('registering a security key', () => {
  it('offers options for this site and person and stores only the hash of the challenge, for five minutes', async () => {
    const person = await newPerson(w.app.db);
    const options = await beginKeyRegistration(w.app.db, person, rp, T);
    expect(options).toMatchObject({
      rp: { id: 'gateway.example', name: 'Gateway' },
      user: { name: person.Username },
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      attestation: 'none',
    });
    const token = await w.app.db.accountToken.findUnique({ where: { tokenHash: hashSecret(options.challenge) } });
    expect(token).toMatchObject({ personId: person.ID, purpose: 'webauthn-register', usedAt: null, expiresAt: at(300) });
    expect(JSON.parse(token!.data!)).toEqual({ rpId: rp.id, origin: rp.origin });
  });

  it('verifies the attestation and stores the credential, its COSE key, counter and transports; the challenge is used', async () => {
    const key = new SoftAuthenticator({ transports: ['usb', 'nfc'] });
    const person = await newPerson(w.app.db);
    const options = await beginKeyRegistration(w.app.db, person, rp, T);
    const saved = await finishKeyRegistration(w.app.db, person.ID, '  Blue key ', key.register(options), rp, at(10));
    expect(saved).toEqual({ id: expect.any(Number), name: 'Blue key' });
    const stored = await w.app.db.securityKey.findUniqueOrThrow({ where: { id: saved.id } });
    expect(stored).toMatchObject({ personId: person.ID, credentialId: key.id, counter: 0, transports: 'usb,nfc', lastUsedAt: null });
    expect(isoBase64URL.toBuffer(stored.publicKey)).toEqual(key.cosePublicKey);
    expect((await w.app.db.accountToken.findUnique({ where: { tokenHash: hashSecret(options.challenge) } }))!.usedAt).toEqual(at(10));
  });

  it('excludes the keys already registered, so the same key cannot be added twice', async () => {
    const { person, key } = await withKey();
    const options = await beginKeyRegistration(w.app.db, person, rp, at(60));
    expect(options.excludeCredentials).toEqual([{ id: key.id, type: 'public-key', transports: ['usb'] }]);
    expect(() => key.register(options)).toThrow(/InvalidStateError/);
    // A client that ignores the exclusion is refused by the unique credential.
    const forced = key.register({ ...options, excludeCredentials: [] });
    await expect(finishKeyRegistration(w.app.db, person.ID, 'again', forced, rp, at(70))).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses a replayed answer: its challenge was used', async () => {
    const person = await newPerson(w.app.db);
    const options = await beginKeyRegistration(w.app.db, person, rp, T);
    const answer = new SoftAuthenticator().register(options);
    await finishKeyRegistration(w.app.db, person.ID, 'first', answer, rp, at(10));
    await expect(finishKeyRegistration(w.app.db, person.ID, 'second', answer, rp, at(20))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'the security key request has expired or was already used; start again',
    });
    expect(await w.app.db.securityKey.count({ where: { personId: person.ID } })).toBe(1);
  });

  it('refuses an answer made on another origin or for another RP ID, with the reason', async () => {
    const person = await newPerson(w.app.db);
    const phished = key(await beginKeyRegistration(w.app.db, person, rp, T), { origin: 'https://gateway.example.evil' });
    await expect(finishKeyRegistration(w.app.db, person.ID, 'k', phished, rp, at(10))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/^the security key's answer could not be verified: .*origin "https:\/\/gateway\.example\.evil"/),
    });
    const otherRp = key(await beginKeyRegistration(w.app.db, person, rp, T), { rpId: 'evil.example', origin: rp.origin });
    await expect(finishKeyRegistration(w.app.db, person.ID, 'k', otherRp, rp, at(10))).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/RP ID/i) });
    expect(await w.app.db.securityKey.count({ where: { personId: person.ID } })).toBe(0);

    function key(options: Parameters<SoftAuthenticator['register']>[0], overrides: object) {
      return new SoftAuthenticator().register(options, overrides);
    }
  });

  it('refuses an expired challenge, another person’s challenge, and a garbled answer', async () => {
    const ada = await newPerson(w.app.db);
    const bob = await newPerson(w.app.db, 'bob');
    const late = new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, ada, rp, T));
    await expect(finishKeyRegistration(w.app.db, ada.ID, 'k', late, rp, at(301))).rejects.toMatchObject({ code: 'VALIDATION' });
    const adas = new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, ada, rp, T));
    await expect(finishKeyRegistration(w.app.db, bob.ID, 'k', adas, rp, at(10))).rejects.toMatchObject({ code: 'VALIDATION' });
    const garbled = { ...adas, response: { ...adas.response, clientDataJSON: 'not json' } };
    await expect(finishKeyRegistration(w.app.db, ada.ID, 'k', garbled, rp, at(10))).rejects.toMatchObject({ code: 'VALIDATION' });
    // Ada's own challenge is still good: neither Bob's attempt nor the garbled one used it.
    await finishKeyRegistration(w.app.db, ada.ID, 'k', adas, rp, at(10));
  });

  it('needs a name of at most 100 characters, checked before the challenge is spent', async () => {
    const person = await newPerson(w.app.db);
    const answer = new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, person, rp, T));
    await expect(finishKeyRegistration(w.app.db, person.ID, '   ', answer, rp, at(10))).rejects.toMatchObject({ code: 'VALIDATION', message: 'give the security key a name' });
    await expect(finishKeyRegistration(w.app.db, person.ID, 'x'.repeat(101), answer, rp, at(10))).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(await finishKeyRegistration(w.app.db, person.ID, 'x'.repeat(100), answer, rp, at(10))).toMatchObject({ name: 'x'.repeat(100) });
  });

  it('a person without a username cannot begin', async () => {
    const contact = await w.app.db.person.create({ data: { FirstName: 'No', LastName: 'Login' } });
    await expect(beginKeyRegistration(w.app.db, contact, rp, T)).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('signing in with a security key', () => {
  it('allows only the person’s keys, verifies the signature, and records the counter and the time', async () => {
    const { person, key, saved } = await withKey();
    const second = await finishKeyRegistration(w.app.db, person.ID, 'spare', new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, person, rp, T)), rp, at(20));
    const options = await beginKeyAuthentication(w.app.db, person.ID, rp, at(60));
    expect(options).toMatchObject({ rpId: rp.id, userVerification: 'preferred' });
    const stored = await w.app.db.securityKey.findMany({ where: { personId: person.ID }, orderBy: { id: 'asc' } });
    expect(options.allowCredentials!.map((c) => c.id)).toEqual(stored.map((k) => k.credentialId));
    expect(await w.app.db.accountToken.findUnique({ where: { tokenHash: hashSecret(options.challenge) } })).toMatchObject({ purpose: 'webauthn-authenticate', expiresAt: at(360) });
    expect(await finishKeyAuthentication(w.app.db, person.ID, key.authenticate(options), rp, at(60))).toBe(true);
    expect(await w.app.db.securityKey.findUnique({ where: { id: saved.id } })).toMatchObject({ counter: 1, lastUsedAt: at(60) });
    expect(await signIn(person.ID, key, at(120))).toBe(true);
    expect(await w.app.db.securityKey.findUnique({ where: { id: saved.id } })).toMatchObject({ counter: 2, lastUsedAt: at(120) });
    expect(await w.app.db.securityKey.findUnique({ where: { id: second.id } })).toMatchObject({ counter: 0, lastUsedAt: null });
  });

  it('refuses a replayed answer, and leaves the counter alone', async () => {
    const { person, key, saved } = await withKey();
    const options = await beginKeyAuthentication(w.app.db, person.ID, rp, at(60));
    const answer = key.authenticate(options);
    expect(await finishKeyAuthentication(w.app.db, person.ID, answer, rp, at(60))).toBe(true);
    expect(await finishKeyAuthentication(w.app.db, person.ID, answer, rp, at(61))).toBe(false);
    expect((await w.app.db.securityKey.findUnique({ where: { id: saved.id } }))!.counter).toBe(1);
  });

  it('refuses an answer from another origin, an expired challenge, or a challenge for registration', async () => {
    const { person, key } = await withKey();
    expect(await signIn(person.ID, key, at(60), { origin: 'https://gateway.example.evil' })).toBe(false);
    const options = await beginKeyAuthentication(w.app.db, person.ID, rp, at(60));
    expect(await finishKeyAuthentication(w.app.db, person.ID, key.authenticate(options), rp, at(361))).toBe(false);
    const registration = await beginKeyRegistration(w.app.db, person, rp, at(60));
    const wrongPurpose = key.authenticate({ challenge: registration.challenge, rpId: rp.id });
    expect(await finishKeyAuthentication(w.app.db, person.ID, wrongPurpose, rp, at(70))).toBe(false);
    expect(await signIn(person.ID, key, at(80))).toBe(true);
  });

  it('refuses a key that is not the person’s, even with a good signature', async () => {
    const ada = await withKey();
    const bob = await withKey(new SoftAuthenticator(), 'bob’s');
    expect(await signIn(ada.person.ID, bob.key, at(60), { ignoreAllowList: true })).toBe(false);
    expect(await signIn(ada.person.ID, new SoftAuthenticator(), at(60), { ignoreAllowList: true })).toBe(false);
    expect(await signIn(ada.person.ID, ada.key, at(70))).toBe(true);
  });

  it('refuses a bad signature and a counter gone backwards (a cloned key)', async () => {
    const { person, key, saved } = await withKey();
    const options = await beginKeyAuthentication(w.app.db, person.ID, rp, at(60));
    const answer = key.authenticate(options);
    const forged = { ...answer, response: { ...answer.response, signature: isoBase64URL.fromBuffer(new Uint8Array(70)) } };
    expect(await finishKeyAuthentication(w.app.db, person.ID, forged, rp, at(60))).toBe(false);
    expect(await signIn(person.ID, key, at(70))).toBe(true); // counter 2
    key.counter = 0; // the clone's counter: its next answer says 1
    expect(await signIn(person.ID, key, at(80))).toBe(false);
    expect((await w.app.db.securityKey.findUnique({ where: { id: saved.id } }))!.counter).toBe(2);
  });

  it('accepts keys that do not count (counter always 0)', async () => {
    const { person, key, saved } = await withKey(new SoftAuthenticator({ counterStep: 0, userVerified: false }));
    expect(await signIn(person.ID, key, at(60))).toBe(true);
    expect(await signIn(person.ID, key, at(70))).toBe(true);
    expect(await w.app.db.securityKey.findUnique({ where: { id: saved.id } })).toMatchObject({ counter: 0, lastUsedAt: at(70) });
  });

  it('has nothing to offer a person without keys', async () => {
    const person = await newPerson(w.app.db);
    await expect(beginKeyAuthentication(w.app.db, person.ID, rp, T)).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('managing security keys', () => {
  it('lists, renames and removes the person’s own keys; another person’s are not found', async () => {
    const { person, saved } = await withKey(new SoftAuthenticator({ transports: ['internal'] }), 'Laptop');
    const bob = await withKey();
    expect(await listSecurityKeys(w.app.db, person.ID)).toEqual([
      { id: saved.id, name: 'Laptop', transports: ['internal'], createdAt: expect.any(Date), lastUsedAt: null },
    ]);
    expect(await renameSecurityKey(w.app.db, person.ID, saved.id, ' Work laptop ')).toEqual({ id: saved.id, name: 'Work laptop' });
    await expect(renameSecurityKey(w.app.db, person.ID, saved.id, '')).rejects.toMatchObject({ code: 'VALIDATION' });
    // Refused on both databases (PostgreSQL could not store it); the name stays.
    await expect(renameSecurityKey(w.app.db, person.ID, saved.id, 'a\u0000b')).rejects.toMatchObject({ code: 'VALIDATION', message: 'name must not contain NUL characters' });
    expect((await w.app.db.securityKey.findUniqueOrThrow({ where: { id: saved.id } })).name).toBe('Work laptop');
    await expect(renameSecurityKey(w.app.db, person.ID, bob.saved.id, 'mine')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(removeSecurityKey(w.app.db, person.ID, bob.saved.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await w.app.db.securityKey.findUnique({ where: { id: bob.saved.id } }))!.name).toBe('YubiKey');
    await removeSecurityKey(w.app.db, person.ID, saved.id);
    expect(await listSecurityKeys(w.app.db, person.ID)).toEqual([]);
    await expect(removeSecurityKey(w.app.db, person.ID, saved.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
