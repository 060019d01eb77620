import { builder } from '../builder.ts';
import { CHANNEL_KINDS, createChannelFor } from '../../monitoring/integrations/service.ts';

export const ChannelKind = builder.enumType('ChannelKind', { values: CHANNEL_KINDS.map((k) => k.toUpperCase()) as ['EMAIL', 'WEBHOOK', 'SMS'] });

export const Channel = builder.prismaObject('Channel', {
  fields: (t) => ({
    id: t.exposeString('code', { description: 'The UUID of the channel' }),
    name: t.exposeString('name'),
    kind: t.exposeString('kind'),
  }),
});

builder.mutationField('createChannel', (t) =>
  t.field({
    type: Channel,
    args: {
      kind: t.arg({ type: ChannelKind, required: true }),
      value: t.arg.string({ required: true, description: 'Email address, http(s) URL or E.164 phone number' }),
      name: t.arg.string(),
    },
    resolve: async (_root, args, ctx) =>
      createChannelFor(ctx.deps, await ctx.access(), { kind: args.kind.toLowerCase(), value: args.value, name: args.name ?? '' }),
  }),
);
