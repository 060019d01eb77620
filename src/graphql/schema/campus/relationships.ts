// Memberships, participants and sessions over GraphQL: the same domain functions as REST.
// A record argument takes what REST takes (an ID, a handle, a username) or the record's global
// `id` (arguments.ts).
import { builder } from '../builder.ts';
import { KINDS } from '../../../campus/kinds.ts';
import { recordIdent } from './arguments.ts';
import { throttledLogin } from '../../../campus/login-throttle.ts';
import { PARTICIPANT_ROLES, MEMBER_ROLES, removeSectionParticipant, setGroupMember, setPersonGroups, setSectionParticipant } from '../../../campus/relationships.ts';

const ParticipantRole = builder.enumType('ParticipantRole', { values: PARTICIPANT_ROLES });
const MemberRole = builder.enumType('GroupMemberRole', { values: MEMBER_ROLES });

const SECTION = 'Slate\'s ID, handle or code, or the section\'s global `id`';
const PERSON = 'Slate\'s ID, username or email address, or the person\'s global `id`';
const GROUP = 'Slate\'s ID or handle, or the group\'s global `id`';

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
    args: { section: t.arg.id({ required: true, description: SECTION }), person: t.arg.id({ required: true, description: PERSON }), role: t.arg({ type: ParticipantRole, required: true }) },
    resolve: async (_q, _r, args, ctx) => setSectionParticipant(ctx.campus, await ctx.viewer(), recordIdent(args.section, KINDS.Section), recordIdent(args.person, KINDS.Person), args.role),
  }),
  removeSectionParticipant: t.boolean({
    args: { section: t.arg.id({ required: true, description: SECTION }), person: t.arg.id({ required: true, description: PERSON }) },
    resolve: async (_r, args, ctx) => {
      await removeSectionParticipant(ctx.campus, await ctx.viewer(), recordIdent(args.section, KINDS.Section), recordIdent(args.person, KINDS.Person));
      return true;
    },
  }),
  setGroupMember: t.prismaField({
    type: 'GroupMember',
    args: { group: t.arg.id({ required: true, description: GROUP }), person: t.arg.id({ required: true, description: PERSON }), role: t.arg({ type: MemberRole, defaultValue: 'Member' }) },
    resolve: async (_q, _r, args, ctx) => setGroupMember(ctx.campus, await ctx.viewer(), recordIdent(args.group, KINDS.Group), recordIdent(args.person, KINDS.Person), args.role ?? 'Member'),
  }),
  setPersonGroups: t.intList({
    description: "Replaces a person's group memberships; returns the group IDs",
    args: { person: t.arg.id({ required: true, description: PERSON }), groups: t.arg.idList({ required: true, description: GROUP }) },
    resolve: async (_r, args, ctx) =>
      setPersonGroups(ctx.campus, await ctx.viewer(), recordIdent(args.person, KINDS.Person), args.groups.map((g) => recordIdent(g, KINDS.Group))),
  }),
}));
