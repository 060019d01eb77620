// Public status pages over GraphQL: `statusPage(slug)` and `statusPageChanged(slug)` answer
// without a key and show only what the domain's PublicCheck carries (names, statuses, last
// pings); `setStatusPage` publishes or withdraws the key's project's page (read-write keys).
import { builder } from '../builder.ts';
import { REPLAYS_LATEST } from '../../server/shared-subscriptions.ts';
import { writableProject } from '../../../monitoring/access.ts';
import { accessToProjectArg } from './project-access.ts';
import {
  readStatusPage,
  setStatusPage,
  statusPageSettings,
  watchStatusPage,
  type PublicCheck,
  type StatusPage,
} from '../../../monitoring/status-pages/service.ts';
import type { StatusPageSettings } from '../../../monitoring/status-pages/validate.ts';
import { CheckStatus } from './check.ts';
import { Project } from './project.ts';

const StatusPageCheck = builder.objectRef<PublicCheck>('StatusPageCheck').implement({
  description: 'A check as its public status page shows it: no id, key, URL or tag',
  fields: (t) => ({
    name: t.exposeString('name'),
    status: t.field({ type: CheckStatus, description: 'Computed when the page is read', resolve: (c) => c.status }),
    lastPing: t.expose('lastPing', { type: 'DateTime', nullable: true }),
  }),
});

const StatusPageRef = builder.objectRef<StatusPage>('StatusPage').implement({
  description: 'A project\'s public status page (/status/<slug>), readable without a key',
  fields: (t) => ({
    slug: t.exposeString('slug'),
    title: t.exposeString('title', { description: 'The project\'s name' }),
    checks: t.field({ type: [StatusPageCheck], description: 'By name; only checks with one of the page\'s tags when it has tags', resolve: (p) => p.checks }),
  }),
});

const Settings = builder.objectRef<StatusPageSettings & { url: string }>('StatusPageSettings').implement({
  fields: (t) => ({
    slug: t.exposeString('slug'),
    tags: t.exposeStringList('tags', { description: 'Checks with any of these tags are listed; empty: every check' }),
    url: t.exposeString('url'),
  }),
});

builder.prismaObjectField(Project, 'statusPage', (t) =>
  t.field({
    type: Settings,
    nullable: true,
    description: 'The project\'s public status page; null when it has none',
    select: { statusSlug: true, statusTags: true },
    resolve: (project, _a, ctx) => {
      const settings = statusPageSettings(project);
      return settings && { ...settings, url: `${ctx.deps.settings.siteRoot}/status/${settings.slug}` };
    },
  }),
);

builder.queryField('statusPage', (t) =>
  t.field({
    type: StatusPageRef,
    description: 'A published status page; NOT_FOUND for an unknown or withdrawn slug. Needs no key',
    args: { slug: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => readStatusPage(ctx.deps, args.slug, ctx.now),
  }),
);

builder.subscriptionField('statusPageChanged', (t) =>
  t.field({
    type: StatusPageRef,
    description: 'The status page now, then again after each change of its checks. Needs no key',
    args: { slug: t.arg.string({ required: true }) },
    // Viewers of one page share one subscription: each who joins later still gets the page now.
    extensions: { [REPLAYS_LATEST]: true },
    subscribe: (_root, args, ctx) => watchStatusPage(ctx.deps, args.slug),
    // Read at each event's time (an SSE context's `now` is its subscribe time).
    resolve: (_signal, args, ctx) => readStatusPage(ctx.deps, args.slug, ctx.deps.clock.now()),
  }),
);

builder.mutationField('setStatusPage', (t) =>
  t.field({
    type: Project,
    description: 'Publishes the project\'s status page at /status/<slug>, limited to checks with any of `tags` when given; a null slug withdraws it (read-write keys)',
    args: { slug: t.arg.string(), tags: t.arg.stringList(), project: t.arg.id({ description: 'The project (signed-in people); a key\'s own when omitted' }) },
    resolve: async (_root, args, ctx) => {
      const projectId = writableProject(await accessToProjectArg(ctx, args.project));
      await setStatusPage(ctx.deps.db, projectId, args.slug === null || args.slug === undefined ? null : { slug: args.slug, tags: args.tags });
      return { id: projectId };
    },
  }),
);
