// The signed-in person's second factors over GraphQL: the authenticator app (set up in two
// moves), security keys and passkeys (a WebAuthn ceremony in two moves), and recovery codes.
// Each field parses, finds the person behind the session cookie, calls the identity room and
// shapes the answer. Turning a factor off and new recovery codes need the password again, so a
// browser left signed in is not enough to weaken the account. Other sessions stay as they are.
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { requireSignedIn } from './signed-in.ts';
import type { SignedIn } from '../../../identity/caller.ts';
import {
  beginKeyRegistration,
  beginTotp,
  confirmTotp,
  disableTotp,
  addSecurityKey,
  listSecurityKeys,
  regenerateRecoveryCodes,
  remainingRecoveryCodes,
  removeSecurityKey,
  renameSecurityKey,
  totpEnabled,
  type SecurityKeyInfo,
  type TotpSetup,
} from '../../../identity/second-factors/index.ts';
import { relyingParty } from '../../../identity/second-factors/relying-party.ts';
import { confirmPassword } from '../../../identity/sign-in.ts';
import { notFound, validationError } from '../../../shared/errors.ts';

/** The password again (identity/sign-in.ts confirmPassword, counted by the login throttle). */
const requirePassword = (ctx: GraphQLContext, me: SignedIn, password: string) => confirmPassword(ctx.identity, me, password, { throttle: ctx.loginThrottle, address: ctx.clientAddress });

/** One of the person's keys as listed (createdAt, lastUsedAt), after a change that returned only its id and name. */
async function securityKeyOf(ctx: GraphQLContext, personId: number, id: number): Promise<SecurityKeyInfo> {
  const key = (await listSecurityKeys(ctx.identity.db, personId)).find((k) => k.id === id);
  // Removed in between (another tab): as if it had never been there.
  if (!key) throw notFound('security key not found');
  return key;
}

/** The browser's answer as JSON text (PublicKeyCredential.toJSON()); its shape is the domain's to verify. */
function registrationResponse(text: string): RegistrationResponseJSON {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError("the security key's answer is not JSON");
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw validationError("the security key's answer must be a JSON object");
  return parsed as RegistrationResponseJSON;
}

const SecurityKey = builder.objectRef<SecurityKeyInfo>('SecurityKey').implement({
  description: 'A security key or passkey the person signs in with',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'The last sign-in with it; null when never used' }),
  }),
});

// Each field loads only what it is asked for.
const SecondFactors = builder.objectRef<{ personId: number }>('SecondFactors').implement({
  description: "The signed-in person's second factors",
  fields: (t) => ({
    totp: t.boolean({ description: 'An authenticator app is set up and confirmed', resolve: (p, _a, ctx) => totpEnabled(ctx.identity.db, p.personId) }),
    securityKeys: t.field({ type: [SecurityKey], description: 'Oldest first', resolve: (p, _a, ctx) => listSecurityKeys(ctx.identity.db, p.personId) }),
    recoveryCodesLeft: t.int({ description: 'Recovery codes not used yet', resolve: (p, _a, ctx) => remainingRecoveryCodes(ctx.identity.db, p.personId) }),
  }),
});

const TotpSetupRef = builder.objectRef<TotpSetup>('TotpSetup').implement({
  description: 'A new authenticator app secret, not yet confirmed',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'Base32, for typing into the app by hand' }),
    uri: t.exposeString('uri', { description: 'otpauth://totp/… for the QR code' }),
  }),
});

const SecurityKeySetup = builder.objectRef<{ securityKey: SecurityKeyInfo; recoveryCodes: string[] | null }>('SecurityKeySetup').implement({
  fields: (t) => ({
    securityKey: t.field({ type: SecurityKey, resolve: (s) => s.securityKey }),
    recoveryCodes: t.exposeStringList('recoveryCodes', {
      nullable: true,
      description: 'New recovery codes when the person had none left (shown once); null otherwise',
    }),
  }),
});

builder.queryField('secondFactors', (t) =>
  t.field({
    type: SecondFactors,
    description: "The signed-in person's second factors; UNAUTHENTICATED when not signed in",
    resolve: async (_root, _a, ctx) => ({ personId: (await requireSignedIn(ctx)).personId }),
  }),
);

builder.mutationFields((t) => ({
  beginTotpSetup: t.field({
    type: TotpSetupRef,
    description: 'A new secret for an authenticator app (the password again: a borrowed session must not add a factor that locks the owner out); confirmTotpSetup turns it on. Replaces a setup not yet confirmed; CONFLICT when an app is already on',
    args: { password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await requirePassword(ctx, me, args.password);
      return beginTotp(ctx.identity.db, me.personId, { issuer: ctx.identity.settings.siteName, accountName: me.username });
    },
  }),
  confirmTotpSetup: t.stringList({
    description: "Turns the authenticator app on with a first code from it; returns ten new recovery codes (shown once; earlier ones stop working)",
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      return (await confirmTotp(ctx.identity.db, me.personId, args.code, ctx.now)).recoveryCodes;
    },
  }),
  disableTotp: t.boolean({
    description: 'Turns the authenticator app off (the password again); recovery codes go too when no security key is left',
    args: { password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await requirePassword(ctx, me, args.password);
      await disableTotp(ctx.identity.db, me.personId);
      return true;
    },
  }),
  regenerateRecoveryCodes: t.stringList({
    description: 'Ten new recovery codes (the password again); the previous ones stop working',
    args: { password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await requirePassword(ctx, me, args.password);
      return regenerateRecoveryCodes(ctx.identity.db, me.personId);
    },
  }),
  beginSecurityKeySetup: t.string({
    description: 'Options for navigator.credentials.create(), as JSON (PublicKeyCredentialCreationOptionsJSON); valid five minutes. The password again, as for beginTotpSetup',
    args: { password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await requirePassword(ctx, me, args.password);
      const options = await beginKeyRegistration(ctx.identity.db, { ID: me.personId, Username: me.username }, relyingParty(ctx.identity.settings), ctx.now);
      return JSON.stringify(options);
    },
  }),
  finishSecurityKeySetup: t.field({
    type: SecurityKeySetup,
    description: "Registers the key from the browser's answer (the credential's toJSON(), as a JSON string) under `name`",
    args: { name: t.arg.string({ required: true }), response: t.arg.string({ required: true, description: 'The JSON of the new PublicKeyCredential' }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      const db = ctx.identity.db;
      const saved = await addSecurityKey(db, me.personId, args.name, registrationResponse(args.response), relyingParty(ctx.identity.settings), ctx.now);
      return { securityKey: await securityKeyOf(ctx, me.personId, saved.id), recoveryCodes: saved.recoveryCodes };
    },
  }),
  renameSecurityKey: t.field({
    type: SecurityKey,
    description: "Renames one of the person's keys; another person's is NOT_FOUND",
    args: { id: t.arg.int({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await renameSecurityKey(ctx.identity.db, me.personId, args.id, args.name);
      return securityKeyOf(ctx, me.personId, args.id);
    },
  }),
  removeSecurityKey: t.boolean({
    description: "Removes one of the person's keys (the password again); recovery codes go too when it was the last second factor",
    args: { id: t.arg.int({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await requirePassword(ctx, me, args.password);
      await removeSecurityKey(ctx.identity.db, me.personId, args.id);
      return true;
    },
  }),
}));
