// Getting in and back in by mail, over GraphQL: a password reset, a sign-in link, and sign-up
// with its address confirmed by a link (REGISTRATION_OPEN). The requests answer true whether
// or not the address has an account; the links' pages (/reset/<token>, /sign-in/<token>,
// /verify/<token>) send the token back here. Rules and throttling live in identity/email-links.ts.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import {
  beginSecurityKeySignInWithLink,
  requestPasswordReset,
  requestSignInLink,
  resetPassword,
  signInWithLink,
  signUp,
  verifyEmail,
} from '../../../identity/email-links.ts';
import type { SignedIn } from '../../../identity/caller.ts';
import { Viewer, browserOf, parseKeyResponse, startSession } from './session.ts';

const asker = (ctx: GraphQLContext) => ({ throttle: ctx.loginThrottle, address: ctx.clientAddress });

builder.queryField('signUpOpen', (t) =>
  t.boolean({
    description: 'Whether anyone may create an account here (signUp): REGISTRATION_OPEN',
    // Public, like the sign-in page that asks: the setting is no secret (signUp answers FORBIDDEN anyway).
    resolve: (_r, _a, ctx) => ctx.identity.settings.registrationOpen,
  }),
);

builder.mutationFields((t) => ({
  requestPasswordReset: t.boolean({
    description: "Mails a link to choose a new password (valid one hour, once) to the account's address. Always true: the answer does not tell whether the account exists",
    args: { username: t.arg.string({ required: true, description: 'Username or email address' }) },
    resolve: async (_r, args, ctx) => {
      await requestPasswordReset(ctx.identity, args.username, asker(ctx));
      return true;
    },
  }),
  resetPassword: t.boolean({
    description: 'Sets a new password with the token of a reset link; every session of the account ends (sign in again)',
    args: { token: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await resetPassword(ctx.identity, args.token, args.password);
      return true;
    },
  }),
  requestSignInLink: t.boolean({
    description: 'Mails a link that signs in (valid one hour, once) when the address is an account\'s. Always true: the answer does not tell whether the account exists',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await requestSignInLink(ctx.identity, args.email, asker(ctx));
      return true;
    },
  }),
  beginSecurityKeySignInWithLink: t.string({
    description: 'For a sign-in link of a person whose second factor is a security key: the options (JSON) for navigator.credentials.get()',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => JSON.stringify(await beginSecurityKeySignInWithLink(ctx.identity, args.token)),
  }),
  signInWithLink: t.field({
    type: Viewer,
    description:
      'Signs in with the token of a sign-in link and sets the session cookie. With two-factor authentication on, also `totp`, `securityKey` or `recoveryCode` (else SECOND_FACTOR_REQUIRED, and the link stays usable)',
    args: {
      token: t.arg.string({ required: true }),
      totp: t.arg.string(),
      securityKey: t.arg.string({ description: "The JSON of the browser's navigator.credentials.get() answer" }),
      recoveryCode: t.arg.string(),
    },
    resolve: async (_r, args, ctx) => {
      const browser = browserOf(ctx);
      const { token, sessionId, person } = await signInWithLink(
        ctx.identity,
        args.token,
        { totp: args.totp, recoveryCode: args.recoveryCode, securityKey: parseKeyResponse(args.securityKey) },
        { throttle: ctx.loginThrottle, address: ctx.clientAddress, userAgent: browser.userAgent, replacing: browser.sessionToken },
      );
      return startSession(ctx, token, { sessionId, personId: person.ID, username: person.Username!, level: person.AccountLevel as SignedIn['level'] });
    },
  }),
  signUp: t.boolean({
    description:
      'Creates an account when the server allows sign-up (REGISTRATION_OPEN; else FORBIDDEN) and mails a link to confirm the address (valid 24 hours); the account signs in once confirmed. True also when the address already has an account (its owner is mailed a sign-in link)',
    args: { username: t.arg.string({ required: true }), email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await signUp(ctx.identity, { username: args.username, email: args.email, password: args.password }, asker(ctx));
      return true;
    },
  }),
  verifyEmail: t.boolean({
    description: 'Confirms a sign-up\'s address with the token of its link: the account may sign in from now on',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await verifyEmail(ctx.identity, args.token);
      return true;
    },
  }),
}));
