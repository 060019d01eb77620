// Signing in and out over GraphQL, and `viewer`: who the browser's session belongs to and the
// projects they reach. The session travels in an HttpOnly cookie set on the HTTP response
// (session-cookie.ts); GraphQL never hands the session id to scripts.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { ROLES, type Role } from '../../../identity/roles.ts';
import { accountEmail } from '../../../identity/accounts.ts';
import { projectsOf } from '../../../identity/memberships.ts';
import { beginSecurityKeySignIn, changePassword, signIn } from '../../../identity/sign-in.ts';
import { endAllSessions, endBrowserSession, endingAccess, endSessionOf, listSessions } from '../../../identity/sessions.ts';
import { secureCookies } from '../../../identity/context.ts';
import { clearedSessionCookie, sessionCookie } from '../../../http/session-cookie.ts';
import { validationError } from '../../../shared/errors.ts';
import type { SignedIn } from '../../../identity/caller.ts';
import { Project } from '../monitoring/project.ts';
import { requireSignedIn } from './signed-in.ts';

export const ProjectRole = builder.enumType('ProjectRole', {
  description: 'OWNER: everything, one per project; MANAGER: members and keys too; REGULAR: checks and channels; READONLY: looks',
  values: Object.fromEntries(ROLES.map((r) => [r.toUpperCase(), { value: r }])) as Record<Uppercase<Role>, { value: Role }>,
});

export const ProjectMembership = builder.objectRef<{ role: Role; project: { id: string } }>('ProjectMembership').implement({
  fields: (t) => ({
    role: t.field({ type: ProjectRole, resolve: (m) => m.role }),
    project: t.field({ type: Project, resolve: (m) => ({ id: m.project.id }) }),
  }),
});

const SessionKind = builder.enumType('SessionKind', {
  description: 'BROWSER: a dashboard sign-in (cookie); TOKEN: a campus API token (POST /login, `gateway campus-token`)',
  values: { BROWSER: { value: 'browser' }, TOKEN: { value: 'token' } } as const,
});

const SessionInfo = builder
  .objectRef<{ id: number; kind: string; created: Date; lastRequest: Date; expiresAt: Date | null; userAgent: string | null; address: string | null; current: boolean }>('AccountSession')
  .implement({
    fields: (t) => ({
      id: t.exposeInt('id'),
      kind: t.field({ type: SessionKind, resolve: (s) => s.kind as 'browser' }),
      created: t.expose('created', { type: 'DateTime' }),
      lastRequest: t.expose('lastRequest', { type: 'DateTime' }),
      expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
      userAgent: t.exposeString('userAgent', { nullable: true }),
      address: t.exposeString('address', { nullable: true }),
      current: t.exposeBoolean('current', { description: 'The session of this request' }),
    }),
  });

export const Viewer = builder.objectRef<SignedIn>('Viewer').implement({
  description: 'The signed-in person: one account for the dashboard and the campus API',
  fields: (t) => ({
    person: t.prismaField({
      type: 'Person',
      description: 'Their campus record',
      resolve: (query, v, _a, ctx) => ctx.deps.db.person.findUniqueOrThrow({ ...query, where: { ID: v.personId } }),
    }),
    username: t.exposeString('username'),
    accountLevel: t.exposeString('level', { description: 'Slate\'s account level: it governs campus records' }),
    email: t.string({ nullable: true, resolve: (v, _a, ctx) => accountEmail(ctx.identity.db, v.personId) }),
    projects: t.field({
      type: [ProjectMembership],
      description: 'The projects they belong to, with their role in each, by name',
      resolve: (v, _a, ctx) => projectsOf(ctx.identity.db, v.personId),
    }),
    sessions: t.field({
      type: [SessionInfo],
      description: 'Their sessions (browsers and campus tokens), newest first',
      resolve: async (v, _a, ctx) =>
        (await listSessions(ctx.identity.db, ctx.identity.settings.sessions, v.personId, ctx.identity.clock.now())).map((s) => ({ ...s, current: s.id === v.sessionId })),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    nullable: true,
    description: 'The person signed in through this browser (the session cookie); null when signed out',
    resolve: (_r, _a, ctx) => ctx.signedIn(),
  }),
);

/** Hands the browser its new session's cookie; the rest of the response is that session's. Returns the viewer. */
export function startSession(ctx: GraphQLContext, token: string, me: SignedIn): SignedIn {
  browserOf(ctx).setCookie(sessionCookie(token, secureCookies(ctx.identity.settings), ctx.identity.settings.sessions.absoluteSeconds));
  ctx.adoptSession(token, me);
  return me;
}

/** The browser this request came from, or a clear error (sign-in needs an HTTP response to set the cookie on). */
export function browserOf(ctx: GraphQLContext) {
  if (!ctx.browser) throw validationError('sign in over HTTP (POST /graphql): the session is a cookie');
  return ctx.browser;
}

/** The browser's answer to a security-key challenge, as JSON text. */
export function parseKeyResponse(json: string | null | undefined): AuthenticationResponseJSON | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as AuthenticationResponseJSON;
    if (typeof value !== 'object' || value === null || typeof value.id !== 'string') throw new Error();
    return value;
  } catch {
    throw validationError('securityKey must be the JSON of the browser\'s credential');
  }
}

builder.mutationFields((t) => ({
  signIn: t.field({
    type: Viewer,
    description:
      'Signs in with a username or email address and the password; with two-factor authentication on, also `totp`, `securityKey` (after beginSecurityKeySignIn) or `recoveryCode` (else the error SECOND_FACTOR_REQUIRED lists the methods). Sets the session cookie.',
    args: {
      username: t.arg.string({ required: true, description: 'Username or email address' }),
      password: t.arg.string({ required: true }),
      totp: t.arg.string({ description: 'The 6-digit code of the authenticator app' }),
      securityKey: t.arg.string({ description: 'The JSON of the browser\'s navigator.credentials.get() answer' }),
      recoveryCode: t.arg.string(),
    },
    resolve: async (_r, args, ctx) => {
      const browser = browserOf(ctx);
      const { token, sessionId, person } = await signIn(
        ctx.identity,
        { login: args.username, password: args.password, totp: args.totp, recoveryCode: args.recoveryCode, securityKey: parseKeyResponse(args.securityKey) },
        { throttle: ctx.loginThrottle, address: ctx.clientAddress, userAgent: browser.userAgent, replacing: browser.sessionToken },
      );
      return startSession(ctx, token, { sessionId, personId: person.ID, username: person.Username!, level: person.AccountLevel as SignedIn['level'] });
    },
  }),
  beginSecurityKeySignIn: t.string({
    description: 'The first step of signing in with a security key or passkey: the options (JSON) for navigator.credentials.get()',
    args: { username: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) =>
      JSON.stringify(await beginSecurityKeySignIn(ctx.identity, args.username, args.password, { throttle: ctx.loginThrottle, address: ctx.clientAddress })),
  }),
  signOut: t.boolean({
    description: 'Ends this browser\'s session and removes its cookie',
    resolve: async (_r, _a, ctx) => {
      const browser = browserOf(ctx);
      const me = await ctx.signedIn();
      const token = browser.sessionToken;
      if (me) await endingAccess(ctx.identity, { personId: me.personId, projectId: null, sessionId: me.sessionId }, async (db) => token && endBrowserSession(db, token));
      else if (token) await endBrowserSession(ctx.identity.db, token);
      browser.setCookie(clearedSessionCookie(secureCookies(ctx.identity.settings)));
      return true;
    },
  }),
  signOutEverywhere: t.int({
    description: 'Ends every other session of the signed-in person (browsers and campus tokens); returns how many ended',
    resolve: async (_r, _a, ctx) => {
      const me = await requireSignedIn(ctx);
      return endingAccess(ctx.identity, { personId: me.personId, projectId: null, sessionId: null }, (db) => endAllSessions(db, me.personId, me.sessionId));
    },
  }),
  changePassword: t.int({
    description: 'A new password (the current one again); every other session of the person ends. Returns how many ended',
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const me = await requireSignedIn(ctx);
      return changePassword(ctx.identity, me, args.currentPassword, args.newPassword, { throttle: ctx.loginThrottle, address: ctx.clientAddress });
    },
  }),
  endSession: t.boolean({
    description: 'Ends one of the signed-in person\'s sessions (see viewer.sessions)',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const me = await requireSignedIn(ctx);
      await endingAccess(ctx.identity, { personId: me.personId, projectId: null, sessionId: args.id }, (db) => endSessionOf(db, me.personId, args.id));
      if (args.id === me.sessionId && ctx.browser) ctx.browser.setCookie(clearedSessionCookie(secureCookies(ctx.identity.settings)));
      return true;
    },
  }),
}));
