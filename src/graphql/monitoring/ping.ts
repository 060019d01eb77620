import { builder } from '../builder.ts';

/** Healthchecks never lists more than 1000 pings of a check. */
export const PING_LIST_MAX = 1000;

export const Ping = builder.prismaObject('Ping', {
  select: { id: true },
  fields: (t) => ({
    n: t.exposeInt('n', { description: 'Serial number within the check; larger is newer' }),
    type: t.exposeString('kind', { description: 'success, start, fail, log or ign' }),
    date: t.expose('createdAt', { type: 'DateTime' }),
    scheme: t.exposeString('scheme'),
    remoteAddr: t.exposeString('remoteAddr', { nullable: true }),
    method: t.exposeString('method'),
    ua: t.exposeString('ua'),
    rid: t.exposeString('rid', { nullable: true }),
    exitStatus: t.exposeInt('exitStatus', { nullable: true }),
    body: t.string({
      nullable: true,
      description: 'The stored body as UTF-8 text (bytes are verbatim over REST)',
      select: { body: true },
      resolve: (p) => (p.body && p.body.length ? Buffer.from(p.body).toString('utf8') : null),
    }),
  }),
});
