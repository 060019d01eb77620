import { builder } from '../builder.ts';

export const Flip = builder.prismaObject('Flip', {
  fields: (t) => ({
    timestamp: t.expose('createdAt', { type: 'DateTime' }),
    up: t.boolean({ description: 'true for a change to up', resolve: (f) => f.newStatus === 'up' }),
    oldStatus: t.exposeString('oldStatus'),
    newStatus: t.exposeString('newStatus'),
    reason: t.exposeString('reason', { description: '"", "fail" (failure ping) or "timeout" (overdue)' }),
  }),
});
