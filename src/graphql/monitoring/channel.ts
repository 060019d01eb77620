// The Channel type ("integration") and the mutation that creates one.
import { builder } from '../builder.ts';
import { CHANNEL_KINDS, createChannelFor, type ChannelKind as Kind } from '../../monitoring/integrations/service.ts';

/** Built from the domain's list, so a new kind there appears here without an edit. */
export const ChannelKind = builder.enumType('ChannelKind', {
  values: Object.fromEntries(CHANNEL_KINDS.map((k) => [k.toUpperCase(), { value: k }])) as Record<Uppercase<Kind>, { value: Kind }>,
});

export const Channel = builder.prismaObject('Channel', {
  fields: (t) => ({
    id: t.exposeID('code', { description: 'The UUID of the channel' }),
    name: t.exposeString('name'),
    kind: t.field({ type: ChannelKind, resolve: (c) => c.kind as Kind }),
  }),
});

builder.mutationField('createChannel', (t) =>
  t.field({
    type: Channel,
    description: 'Adds a notification channel to the key’s project (read-write keys)',
    args: {
      kind: t.arg({ type: ChannelKind, required: true }),
      value: t.arg.string({ required: true, description: 'Email address, http(s) URL or E.164 phone number' }),
      name: t.arg.string(),
    },
    resolve: async (_root, args, ctx) =>
      createChannelFor(ctx.deps, await ctx.access(), { kind: args.kind, value: args.value, name: args.name ?? '' }),
  }),
);
