// Memberships, participants and sessions over GraphQL: the same domain functions as REST.
import { builder } from '../builder.ts';
import { throttledLogin } from '../../../campus/login-throttle.ts';
import { PARTICIPANT_ROLES, MEMBER_ROLES, removeSectionParticipant, setGroupMember, setPersonGroups, setSectionParticipant } from '../../../campus/relationships.ts';

const ParticipantRole = builder.enumType('ParticipantRole', { values: PARTICIPANT_ROLES });
const MemberRole = builder.enumType('GroupMemberRole', { values: MEMBER_ROLES });

const Session = builder.objectRef<{ token: string; personId: number }>('CampusSession').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'Send as `Authorization: Token <token>`' }),
    personId: t.exposeInt('personId'),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: Session,
    description: "A campus session token, as Slate's /login gives one; Contact and Disabled accounts cannot log in",
    args: { username: t.arg.string({ required: true, description: 'Username or email address' }), password: t.arg.string({ required: true }) },
    // Counted per account and per client address with POST /login (login-throttle.ts).
    resolve: async (_r, args, ctx) => {
      const { token, person } = await throttledLogin(ctx.deps.db, ctx.loginThrottle, ctx.clientAddress, args.username, args.password);
      return { token, personId: person.ID };
    },
  }),
  setSectionParticipant: t.prismaField({
    type: 'SectionParticipant',
    description: 'Adds a person to a section with a role, or changes their role',
    args: { section: t.arg.string({ required: true, description: 'ID or handle' }), person: t.arg.string({ required: true, description: 'ID or username' }), role: t.arg({ type: ParticipantRole, required: true }) },
    resolve: async (_q, _r, args, ctx) => setSectionParticipant(ctx.campus, await ctx.viewer(), args.section, args.person, args.role),
  }),
  removeSectionParticipant: t.boolean({
    args: { section: t.arg.string({ required: true }), person: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await removeSectionParticipant(ctx.campus, await ctx.viewer(), args.section, args.person);
      return true;
    },
  }),
  setGroupMember: t.prismaField({
    type: 'GroupMember',
    args: { group: t.arg.string({ required: true }), person: t.arg.string({ required: true }), role: t.arg({ type: MemberRole, defaultValue: 'Member' }) },
    resolve: async (_q, _r, args, ctx) => setGroupMember(ctx.campus, await ctx.viewer(), args.group, args.person, args.role ?? 'Member'),
  }),
  setPersonGroups: t.intList({
    description: "Replaces a person's group memberships; returns the group IDs",
    args: { person: t.arg.string({ required: true }), groups: t.arg.stringList({ required: true }) },
    resolve: async (_r, args, ctx) => setPersonGroups(ctx.campus, await ctx.viewer(), args.person, args.groups),
  }),
}));
