// A signed-in person's projects over GraphQL: creating one, its members and their roles, its
// keys (each shown once), leaving and handing it over, and its audit log. Rights are the
// role's (identity/roles.ts), enforced by the domain functions; resolvers parse and shape.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { accountByLogin } from '../../../identity/accounts.ts';
import { changeRole, createOwnedProject, leaveProject, listMembers, removeMember, requireManager, transferOwnership } from '../../../identity/memberships.ts';
import type { Role } from '../../../identity/roles.ts';
import { KEY_NAMES, renameProject, revokeKey, rotateKey, type KeyKind } from '../../../monitoring/projects/service.ts';
import { listAuditFor } from '../../../monitoring/audit/service.ts';
import { notFound } from '../../../shared/errors.ts';
import { Project } from '../monitoring/project.ts';
import { ProjectRole } from './session.ts';
import { requireSignedIn } from './signed-in.ts';

const personAccess = async (ctx: GraphQLContext, project: string | number) => {
  const me = await requireSignedIn(ctx);
  const access = await ctx.access(String(project));
  return { ...access, actor: { personId: me.personId, label: me.username } };
};

const membershipDeps = (ctx: GraphQLContext) => ({ db: ctx.identity.db, events: ctx.identity.events, clock: ctx.identity.clock });

/** A member named by username or email address (who must be a member for the change to apply). */
async function personNamed(ctx: GraphQLContext, account: string): Promise<number> {
  const person = await accountByLogin(ctx.identity.db, account);
  if (!person) throw notFound('member not found');
  return person.ID;
}

const Member = builder.objectRef<{ personId: number; role: Role; since: Date; username: string; name: string }>('ProjectMember').implement({
  fields: (t) => ({
    username: t.exposeString('username'),
    name: t.exposeString('name'),
    role: t.field({ type: ProjectRole, resolve: (m) => m.role }),
    since: t.expose('since', { type: 'DateTime' }),
    person: t.prismaField({ type: 'Person', resolve: (query, m, _a, ctx) => ctx.deps.db.person.findUniqueOrThrow({ ...query, where: { ID: m.personId } }) }),
  }),
});

const KeyKindEnum = builder.enumType('ProjectKeyKind', {
  description: 'READ_WRITE and READ_ONLY: Management API keys; PING: the key of slug ping URLs (/ping/<key>/<slug>)',
  values: { READ_WRITE: { value: 'api_key' }, READ_ONLY: { value: 'api_key_readonly' }, PING: { value: 'ping_key' } } as const,
});

const ProjectKey = builder.objectRef<{ kind: 'api_key' | 'api_key_readonly' | 'ping_key'; exists: boolean }>('ProjectKey').implement({
  fields: (t) => ({
    kind: t.field({ type: KeyKindEnum, resolve: (k) => k.kind }),
    name: t.string({ resolve: (k) => KEY_NAMES[k.kind] }),
    exists: t.exposeBoolean('exists', { description: 'The key itself is shown only once, when created' }),
  }),
});

const AuditEntryRef = builder
  .objectRef<{ id: number; at: Date; actorLabel: string; actorPersonId: number | null; action: string; targetKind: string; targetId: string; targetName: string; detail: unknown }>('AuditEntry')
  .implement({
    fields: (t) => ({
      id: t.exposeInt('id'),
      at: t.expose('at', { type: 'DateTime' }),
      actor: t.exposeString('actorLabel', { description: 'A username, or the API key\'s name, or CLI' }),
      action: t.exposeString('action', { description: 'e.g. check.paused, member.role_changed' }),
      targetKind: t.exposeString('targetKind'),
      targetId: t.exposeString('targetId'),
      targetName: t.exposeString('targetName'),
      detail: t.string({ nullable: true, description: 'JSON: e.g. the fields an update changed, or a role change', resolve: (e) => (e.detail === null || e.detail === undefined ? null : JSON.stringify(e.detail)) }),
    }),
  });

const AuditPageRef = builder.objectRef<{ entries: unknown[]; hasNextPage: boolean; endCursor: number | null }>('AuditPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [AuditEntryRef], resolve: (p) => p.entries as never }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeInt('endCursor', { nullable: true, description: 'Pass as `after` for the next (older) page' }),
  }),
});

builder.objectFields(Project, (t) => ({
  role: t.field({
    type: ProjectRole,
    description: 'The caller\'s role here (a read-write key acts as REGULAR, a read-only key as READONLY)',
    resolve: async (p, _a, ctx) => (await ctx.access(p.id)).role,
  }),
  members: t.field({
    type: [Member],
    description: 'Owner first, then managers, regular and read-only members (members only)',
    resolve: async (p, _a, ctx) => {
      await personAccess(ctx, p.id);
      return listMembers(ctx.identity.db, p.id);
    },
  }),
  keys: t.field({
    type: [ProjectKey],
    description: 'Which keys exist (owners and managers)',
    resolve: async (p, _a, ctx) => {
      requireManager(await personAccess(ctx, p.id));
      const row = await ctx.deps.db.project.findUniqueOrThrow({ where: { id: p.id }, select: { apiKeyHash: true, apiKeyReadonlyHash: true, pingKeyHash: true } });
      return [
        { kind: 'api_key' as const, exists: row.apiKeyHash !== null },
        { kind: 'api_key_readonly' as const, exists: row.apiKeyReadonlyHash !== null },
        { kind: 'ping_key' as const, exists: row.pingKeyHash !== null },
      ];
    },
  }),
  auditLog: t.field({
    type: AuditPageRef,
    description: 'Who did what here, newest first (owners and managers)',
    args: { first: t.arg.int({ defaultValue: 50 }), after: t.arg.int() },
    resolve: async (p, args, ctx) => listAuditFor(ctx.deps, await ctx.access(p.id), { first: args.first ?? 50, after: args.after ?? null }),
  }),
}));

builder.mutationFields((t) => ({
  createProject: t.field({
    type: Project,
    description: 'A new project owned by the signed-in person; it has no API keys until created (createProjectKey)',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const me = await requireSignedIn(ctx);
      const project = await createOwnedProject(membershipDeps(ctx), { personId: me.personId, label: me.username }, args.name);
      return { id: project.id };
    },
  }),
  renameProject: t.field({
    type: Project,
    description: 'Owners and managers',
    args: { project: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await personAccess(ctx, args.project);
      requireManager(access);
      await renameProject(ctx.deps.db, access.projectId, args.name, access.actor, ctx.deps.clock.now());
      return { id: access.projectId };
    },
  }),
  createProjectKey: t.string({
    description: 'Creates (or replaces: the old one stops working) a key, and returns it: it is shown this once (owners and managers)',
    args: { project: t.arg.id({ required: true }), kind: t.arg({ type: KeyKindEnum, required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await personAccess(ctx, args.project);
      requireManager(access);
      return rotateKey(ctx.deps.db, access.projectId, args.kind as KeyKind, access.actor, ctx.deps.clock.now());
    },
  }),
  revokeProjectKey: t.boolean({
    description: 'Removes a key: programs using it are refused from now on (owners and managers)',
    args: { project: t.arg.id({ required: true }), kind: t.arg({ type: KeyKindEnum, required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await personAccess(ctx, args.project);
      requireManager(access);
      await revokeKey(ctx.deps.db, access.projectId, args.kind, access.actor, ctx.deps.clock.now());
      return true;
    },
  }),
  changeMemberRole: t.field({
    type: ProjectRole,
    description: 'Owners and managers change a member\'s role (MANAGER, REGULAR or READONLY; the owner changes by transferOwnership)',
    args: { project: t.arg.id({ required: true }), account: t.arg.string({ required: true, description: 'Username or email address' }), role: t.arg({ type: ProjectRole, required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await personAccess(ctx, args.project);
      return (await changeRole(membershipDeps(ctx), access, await personNamed(ctx, args.account), args.role)).to;
    },
  }),
  removeMember: t.boolean({
    description: 'Owners and managers remove a member (not the owner); they lose access at their next request',
    args: { project: t.arg.id({ required: true }), account: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await removeMember(membershipDeps(ctx), await personAccess(ctx, args.project), await personNamed(ctx, args.account));
      return true;
    },
  }),
  leaveProject: t.boolean({
    description: 'The signed-in person leaves the project (the owner must transfer ownership first)',
    args: { project: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const access = await personAccess(ctx, args.project);
      await leaveProject(membershipDeps(ctx), access);
      return true;
    },
  }),
  transferOwnership: t.boolean({
    description: 'The owner hands the project to another member and stays as a manager',
    args: { project: t.arg.id({ required: true }), account: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await transferOwnership(membershipDeps(ctx), await personAccess(ctx, args.project), await personNamed(ctx, args.account));
      return true;
    },
  }),
}));
