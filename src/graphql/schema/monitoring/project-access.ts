// How a resolver finds the caller's access for what it was given. An API key reaches its one
// project, so it needs nothing more. A signed-in person may belong to several: a mutation on a
// check or channel takes the project of that check or channel (when the person is a member
// there, else it is not found, with no hint that it exists); one that creates something takes
// the `project` argument. A check or channel argument is its UUID or its global ID (one reading,
// checkArgument / channelArgument, for every field that takes one).
import type { ProjectAccess } from '../../../monitoring/context.ts';
import { writableProject } from '../../../monitoring/access.ts';
import { DomainError, notFound } from '../../../shared/errors.ts';
import { holdsNul } from '../../../shared/stored-text.ts';
import type { GraphQLContext } from '../context.ts';
import { globalKey } from '../id-argument.ts';
import { intKey, uuidKey } from '../node-keys.ts';

async function accessToProjectOf(ctx: GraphQLContext, lookup: () => Promise<{ projectId: string } | null>, missing: () => DomainError): Promise<ProjectAccess> {
  if (!(await ctx.signedIn())) return ctx.access();
  const row = await lookup();
  if (!row) throw missing();
  return ctx.access(row.projectId).catch((err) => {
    throw err instanceof DomainError && err.code === 'NOT_FOUND' ? missing() : err;
  });
}

/** The access to the project of the check with this UUID. */
const accessToCheck = (ctx: GraphQLContext, code: string) =>
  accessToProjectOf(ctx, async () => (holdsNul(code) ? null : ctx.deps.db.check.findUnique({ where: { code }, select: { projectId: true } })), () => notFound());

/** The access to the project of the channel with this UUID. */
const accessToChannel = (ctx: GraphQLContext, code: string) =>
  accessToProjectOf(ctx, async () => (holdsNul(code) ? null : ctx.deps.db.channel.findUnique({ where: { code }, select: { projectId: true } })), () => notFound(`channel not found: ${code}`));

/**
 * The UUID an argument names: the UUID as given, or the one of the object whose global ID it
 * is. Only the caller's projects are searched, so another project's object stays unknown and
 * its UUID (a check's is its ping URL's secret) untold. A global ID that names nothing here
 * is passed on as it came: no UUID looks like it, so the field answers exactly as for a
 * missing UUID (its authentication first, then "not found").
 */
async function codeOf(ctx: GraphQLContext, raw: string | number, type: string, find: (id: number, projects: string[]) => Promise<{ code: string } | null>): Promise<string> {
  const id = globalKey(raw, [type], intKey)?.key;
  if (id === undefined || id === null) return String(raw);
  const row = await find(id, await ctx.readableProjects());
  return row?.code ?? String(raw);
}

/** A check argument (`id`, `checkId`, `check`: its UUID or its global ID): the check's UUID and the access to its project. */
export async function checkArgument(ctx: GraphQLContext, raw: string | number): Promise<{ code: string; access: ProjectAccess }> {
  const code = await codeOf(ctx, raw, 'Check', (id, projects) => ctx.deps.db.check.findFirst({ where: { id, projectId: inProjects(projects) }, select: { code: true } }));
  return { code, access: await accessToCheck(ctx, code) };
}

/** A channel argument (its UUID or its global ID): the channel's UUID and the access to its project. */
export async function channelArgument(ctx: GraphQLContext, raw: string | number): Promise<{ code: string; access: ProjectAccess }> {
  const code = await codeOf(ctx, raw, 'Channel', (id, projects) => ctx.deps.db.channel.findFirst({ where: { id, projectId: inProjects(projects) }, select: { code: true } }));
  return { code, access: await accessToChannel(ctx, code) };
}

/** A project `id` argument: its UUID, or its global ID (one naming no project is passed on, to be not found as a wrong UUID). */
export const projectIdArgument = (raw: string | number): string => globalKey(raw, ['Project'], uuidKey)?.key ?? String(raw);

/** The `project` argument of a field that creates or configures something; a key's own project when omitted. */
export const accessToProjectArg = (ctx: GraphQLContext, project: string | number | null | undefined) => ctx.access(project === null || project === undefined ? null : String(project));

/**
 * The projects whose channels, pings and notifications the caller may see (what read-only keys
 * and members may not): a read-only key is refused ("wrong api key") as always.
 */
export async function writableProjects(ctx: GraphQLContext): Promise<string[]> {
  if (!(await ctx.signedIn())) return [writableProject(await ctx.access())];
  const accesses = await Promise.all((await ctx.readableProjects()).map((id) => ctx.access(id)));
  return accesses.filter((a) => !a.readOnly).map((a) => a.projectId);
}

/**
 * A `where` on a project id column for node look-ups: an equality for one project, so that
 * Prisma still batches the plugin's findUnique calls into one statement (an `in` list is not
 * batched: 50 nodes would be 50 statements).
 */
export const inProjects = (ids: string[]) => (ids.length === 1 ? ids[0]! : { in: ids });
