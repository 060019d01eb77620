// Invitations over GraphQL: owners and managers invite an address with a role and see and
// withdraw the pending invitations; the accept page (/invite/<token>) shows what the link is
// for and accepts it, as the person signed in or as a new account that is signed in at once.
// Rules live in identity/invitations.ts.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { acceptInvitation, invitationByToken, invite, listInvitations, revokeInvitation, type InvitationInfo, type InvitationPreview } from '../../../identity/invitations.ts';
import { requireManager } from '../../../identity/memberships.ts';
import { openSessionFor } from '../../../identity/sign-in.ts';
import type { SignedIn } from '../../../identity/caller.ts';
import { validationError } from '../../../shared/errors.ts';
import { Project } from '../monitoring/project.ts';
import { ProjectRole, Viewer, browserOf, startSession } from './session.ts';
import { requireSignedIn } from './signed-in.ts';

/** The signed-in person's access to the project (their role there). */
const personAccess = async (ctx: GraphQLContext, project: string | number) => {
  const me = await requireSignedIn(ctx);
  const access = await ctx.access(String(project));
  return { ...access, actor: { personId: me.personId, label: me.username } };
};

const ProjectInvitation = builder.objectRef<InvitationInfo>('ProjectInvitation').implement({
  description: 'An invitation not yet accepted: its link was mailed to `email`',
  fields: (t) => ({
    id: t.exposeInt('id'),
    email: t.exposeString('email'),
    role: t.field({ type: ProjectRole, resolve: (i) => i.role }),
    invitedBy: t.exposeString('invitedBy', { nullable: true, description: "The inviter's username" }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'The link stops working then (7 days after sending)' }),
  }),
});

const InvitationPreviewRef = builder.objectRef<InvitationPreview>('InvitationPreview').implement({
  description: 'What an invitation link is for, shown before accepting it',
  fields: (t) => ({
    projectName: t.exposeString('projectName'),
    role: t.field({ type: ProjectRole, resolve: (i) => i.role }),
    email: t.exposeString('email', { description: 'The address invited (a new account gets it)' }),
    invitedBy: t.exposeString('invitedBy', { nullable: true }),
  }),
});

builder.objectFields(Project, (t) => ({
  invitations: t.field({
    type: [ProjectInvitation],
    description: 'Invitations not yet accepted and still valid, oldest first (owners and managers)',
    resolve: async (p, _a, ctx) => {
      requireManager(await personAccess(ctx, p.id));
      return listInvitations(ctx.identity, p.id);
    },
  }),
}));

builder.queryField('invitation', (t) =>
  t.field({
    type: InvitationPreviewRef,
    nullable: true,
    description: 'The invitation behind a link: null when it has expired, was withdrawn or was already accepted',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => invitationByToken(ctx.identity, args.token),
  }),
);

builder.mutationFields((t) => ({
  inviteMember: t.field({
    type: ProjectInvitation,
    description: 'Mails an invitation to join the project as MANAGER, REGULAR or READONLY (owners and managers); a new one to the same address replaces the pending one',
    args: { project: t.arg.id({ required: true }), email: t.arg.string({ required: true }), role: t.arg({ type: ProjectRole, required: true }) },
    resolve: async (_r, args, ctx) => invite(ctx.identity, await personAccess(ctx, args.project), args.email, args.role),
  }),
  revokeInvitation: t.boolean({
    description: 'Withdraws an invitation not yet accepted: its link stops working (owners and managers)',
    args: { project: t.arg.id({ required: true }), id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await revokeInvitation(ctx.identity, await personAccess(ctx, args.project), args.id);
      return true;
    },
  }),
  acceptInvitation: t.field({
    type: Viewer,
    description:
      'Accepts an invitation: the signed-in person joins the project; signed out, a new account is made with `username`, `password` and the invited address, joins, and is signed in (the session cookie)',
    args: { token: t.arg.string({ required: true }), username: t.arg.string(), password: t.arg.string() },
    resolve: async (_r, args, ctx) => {
      const me = await ctx.signedIn();
      if (me) {
        await acceptInvitation(ctx.identity, args.token, { personId: me.personId });
        return me;
      }
      const browser = browserOf(ctx);
      if (!args.username || !args.password) throw validationError('sign in, or choose a username and a password for a new account');
      const accepted = await acceptInvitation(ctx.identity, args.token, { newAccount: { username: args.username, password: args.password } });
      const { token, sessionId, person } = await openSessionFor(ctx.identity, accepted.personId, { address: ctx.clientAddress, userAgent: browser.userAgent, replacing: browser.sessionToken });
      return startSession(ctx, token, { sessionId, personId: person.ID, username: person.Username!, level: person.AccountLevel as SignedIn['level'] });
    },
  }),
}));
