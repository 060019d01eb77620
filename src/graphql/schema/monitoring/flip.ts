import { inProjects } from './project-access.ts';
import { builder } from '../builder.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';

export const Flip = builder.prismaNode('Flip', {
  id: nodeId((f: { id: number }) => f.id, intKey),
  // As Check.flips: any key of the check's project, read-only ones too; another project's is null.
  findUnique: async (id, ctx) => ({ id: asInt(id), check: { projectId: inProjects(await ctx.readableProjects()) } }),
  nullable: true,
  fields: (t) => ({
    timestamp: t.expose('createdAt', { type: 'DateTime' }),
    up: t.boolean({ description: 'true for a change to up', resolve: (f) => f.newStatus === 'up' }),
    oldStatus: t.exposeString('oldStatus'),
    newStatus: t.exposeString('newStatus'),
    reason: t.exposeString('reason', { description: '"", "fail" (failure ping) or "timeout" (overdue)' }),
  }),
});
