// The key's project: its checks (filtered, paginated), channels and badges.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { inProjects, projectIdArgument } from './project-access.ts';
import { builder } from '../builder.ts';
import type { Check as CheckRow, Prisma } from '../../../generated/prisma/client.ts';
import { listChecks } from '../../../monitoring/checks/service.ts';
import { listChannels } from '../../../monitoring/integrations/service.ts';
import { channelKind } from '../../../monitoring/integrations/kinds/index.ts';
import { listBadges } from '../../../monitoring/badges/service.ts';
import { MAX_PAGE, pageArgument } from '../pagination.ts';
import { Check, CheckStatus } from './check.ts';
import { checkColumnsFor } from './check-columns.ts';
import { Channel } from './channel.ts';
import { prefetchListedPings } from './ping.ts';
import { nodeId, uuidKey } from '../node-keys.ts';
import { PING_LOG_LIMIT_MAX, PING_LOG_LIMIT_MIN, setPingLogLimit } from '../../../monitoring/projects/service.ts';
import { requireManager } from '../../../identity/memberships.ts';

const BadgeSet = builder.objectRef<{ tag: string; urls: Record<string, string> }>('BadgeSet').implement({
  description: 'Badge URLs for one tag ("*" stands for all checks)',
  fields: (t) => ({
    tag: t.exposeString('tag'),
    svg: t.string({ resolve: (b) => b.urls.svg! }),
    svg3: t.string({ resolve: (b) => b.urls.svg3! }),
    json: t.string({ resolve: (b) => b.urls.json! }),
    json3: t.string({ resolve: (b) => b.urls.json3! }),
    shields: t.string({ resolve: (b) => b.urls.shields! }),
    shields3: t.string({ resolve: (b) => b.urls.shields3! }),
  }),
});

interface CheckPageShape {
  projectId: string;
  nodes: CheckRow[];
  totalCount: () => Promise<number>;
  hasNextPage: boolean;
  endCursor: string | null;
}

const CheckFilter = builder.inputType('CheckFilter', {
  fields: (t) => ({
    tags: t.stringList({ description: 'Checks having every one of these tags (exact match)' }),
    status: t.field({ type: [CheckStatus], description: 'Checks in any of these statuses, computed now' }),
    slug: t.string({ description: 'Checks whose slug is exactly this one; empty means any slug (as REST\'s `?slug=`)' }),
  }),
});

const CheckPage = builder.objectRef<CheckPageShape>('CheckPage').implement({
  fields: (t) => ({
    nodes: t.field({
      type: [Check],
      // The page's pings load here, one batch per variant, so each check's `pings` field then
      // resolves synchronously (ping.ts, prefetchListedPings).
      resolve: async (p, _a, ctx, info) => {
        await prefetchListedPings(ctx, info, p.nodes.map((c) => c.id), p.projectId);
        return p.nodes;
      },
    }),
    totalCount: t.int({ description: 'Checks matching the filter, all pages', resolve: (p) => p.totalCount() }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as `after` for the next page' }),
  }),
});

export const Project = builder.prismaNode('Project', {
  select: { id: true },
  id: nodeId((p: { id: string }) => p.id, uuidKey),
  // A key reads its own project (as `project`), a person those they are a member of; another is null.
  findUnique: async (id, ctx) => ({ id: String(id), AND: [{ id: inProjects(await ctx.readableProjects()) }] }),
  nullable: true,
  fields: (t) => ({
    uuid: t.exposeID('id', { description: 'The project\'s UUID (as `gateway project create` prints it)' }),
    name: t.exposeString('name'),
    pingLogLimit: t.exposeInt('pingLogLimit', { description: `Pings listed per check (100 by default, at most ${PING_LOG_LIMIT_MAX}; setPingLogLimit changes it)` }),
    nagPeriod: t.exposeInt('nagPeriod', { nullable: true, description: 'Repeat alerts: seconds between reminders while a check is down; null when off' }),
    checks: t.field({
      type: CheckPage,
      description: 'The project\'s checks, oldest first; `filter` applies before paging',
      args: {
        filter: t.arg({ type: CheckFilter }),
        first: t.arg.int({ defaultValue: 100, description: `Page size, 0 to ${MAX_PAGE}` }),
        after: t.arg.string({ description: 'endCursor of the previous page' }),
      },
      resolve: async (project, args, ctx, info) => {
        const first = pageArgument('first', args.first, MAX_PAGE) ?? 100;
        // The relations the query selects under `nodes` (flips, channels) load with the page.
        const { include } = queryFromInfo({ context: ctx, info, path: ['nodes'] }) as { include?: Prisma.CheckInclude };
        // The domain filter REST uses: an empty slug filters nothing, as `?slug=` does.
        const filter = { tags: args.filter?.tags ?? [], status: args.filter?.status ?? [], slug: args.filter?.slug || undefined };
        // Only the columns the selected fields read (check-columns.ts); whole rows otherwise.
        const columns = checkColumnsFor(info, ['nodes']) ?? undefined;
        const page = await listChecks(ctx.deps, await ctx.access(project.id), filter, { first, after: args.after, include, columns });
        const nodes = page.checks;
        return {
          projectId: project.id,
          nodes,
          totalCount: page.total,
          hasNextPage: page.hasNextPage,
          endCursor: nodes.length ? nodes[nodes.length - 1]!.uniqueKey : null,
        };
      },
    }),
    channels: t.field({
      type: [Channel],
      nullable: true,
      description: 'Read-write keys only (null with an UNAUTHENTICATED error otherwise)',
      // Channels of a kind the enum cannot name (kept from a Healthchecks import until their kind exists here) are left out.
      resolve: async (p, _a, ctx) => (await listChannels(ctx.deps, await ctx.access(p.id))).filter((c) => channelKind(c.kind)),
    }),
    badges: t.field({
      type: [BadgeSet],
      resolve: async (p, _a, ctx) =>
        Object.entries(await listBadges(ctx.deps, await ctx.access(p.id))).map(([tag, urls]) => ({ tag, urls })),
    }),
  }),
});

builder.queryField('project', (t) =>
  t.field({
    type: Project,
    description: 'The project the X-Api-Key belongs to; for a signed-in person, the project with this id (one of viewer.projects)',
    args: { id: t.arg.id({ description: 'The project\'s UUID or global `id` (signed-in people); a key\'s own project when omitted' }) },
    // The key (or membership) was just found for this project: nothing to read unless a column
    // is asked for, which the plugin then loads by id.
    resolve: async (_root, args, ctx) => ({ id: (await ctx.access(args.id ? projectIdArgument(args.id) : null)).projectId }),
  }),
);

builder.mutationField('setPingLogLimit', (t) =>
  t.field({
    type: Project,
    description: `How many pings the API lists per check, ${PING_LOG_LIMIT_MIN} to ${PING_LOG_LIMIT_MAX} (owners and managers; recorded in the audit log)`,
    args: { project: t.arg.id({ required: true }), limit: t.arg.int({ required: true }) },
    // As renameProject: the role decides (an API key acts as a regular member: FORBIDDEN).
    resolve: async (_root, args, ctx) => {
      const access = await ctx.access(String(args.project));
      requireManager(access);
      await setPingLogLimit(ctx.deps.db, access.projectId, args.limit, access.actor, ctx.deps.clock.now());
      return { id: access.projectId };
    },
  }),
);
