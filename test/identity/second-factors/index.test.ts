// A person's second factors at a glance, and how recovery codes follow the factors: they come
// with the authenticator app and go when the last factor does.
import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import {
  beginKeyRegistration,
  beginTotp,
  confirmTotp,
  disableTotp,
  finishKeyRegistration,
  hasSecondFactor,
  removeSecurityKey,
  secondFactorsOf,
  useRecoveryCode,
  type RelyingParty,
} from '../../../src/identity/second-factors/index.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.ts';
import { newPerson } from './people.ts';

const w = useWorld();
const rp: RelyingParty = { id: 'gateway.example', name: 'Gateway', origin: 'https://gateway.example' };
const T = new Date('2026-01-05T10:00:15Z');

describe('second factors of a person', () => {
  it('count a confirmed app, the keys and the unused recovery codes; recovery codes alone are no factor', async () => {
    const person = await newPerson(w.app.db);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: false, securityKeys: 0, recoveryCodesLeft: 0 });
    expect(await hasSecondFactor(w.app.db, person.ID)).toBe(false);

    // A setup in progress is not a factor.
    const { secret } = await beginTotp(w.app.db, person.ID, { issuer: 'Gateway', accountName: 'ada' });
    expect(await hasSecondFactor(w.app.db, person.ID)).toBe(false);

    const key = await finishKeyRegistration(w.app.db, person.ID, 'key', new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, person, rp, T)), rp, T);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: false, securityKeys: 1, recoveryCodesLeft: 0 });
    expect(await hasSecondFactor(w.app.db, person.ID)).toBe(true);

    const { recoveryCodes } = await confirmTotp(w.app.db, person.ID, TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: T.getTime() }), T);
    await useRecoveryCode(w.app.db, person.ID, recoveryCodes[0]!, T);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: true, securityKeys: 1, recoveryCodesLeft: 9 });

    // The app is still there: the codes stay with it.
    await removeSecurityKey(w.app.db, person.ID, key.id);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: true, securityKeys: 0, recoveryCodesLeft: 9 });

    // The last factor gone: the codes go too, so they cannot revive with a factor added later.
    await disableTotp(w.app.db, person.ID);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: false, securityKeys: 0, recoveryCodesLeft: 0 });
    expect(await hasSecondFactor(w.app.db, person.ID)).toBe(false);
    expect(await w.app.db.recoveryCode.count({ where: { personId: person.ID } })).toBe(0);
  });

  it('removing the last security key drops the recovery codes too; disabling the app keeps them while a key remains', async () => {
    const person = await newPerson(w.app.db);
    const { secret } = await beginTotp(w.app.db, person.ID, { issuer: 'Gateway', accountName: 'ada' });
    await confirmTotp(w.app.db, person.ID, TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: T.getTime() }), T);
    const key = await finishKeyRegistration(w.app.db, person.ID, 'key', new SoftAuthenticator().register(await beginKeyRegistration(w.app.db, person, rp, T)), rp, T);
    await disableTotp(w.app.db, person.ID);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: false, securityKeys: 1, recoveryCodesLeft: 10 });
    await removeSecurityKey(w.app.db, person.ID, key.id);
    expect(await secondFactorsOf(w.app.db, person.ID)).toEqual({ totp: false, securityKeys: 0, recoveryCodesLeft: 0 });
  });
});
