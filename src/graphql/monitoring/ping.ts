// The Ping type and the per-request loader that lists pings with their durations.
import DataLoader from 'dataloader';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { builder } from '../builder.ts';
import { executionScope } from '../execution-scope.ts';
import type { GraphQLContext } from '../context.ts';
import { PING_LIST_MAX, latestPings, pingDurations, pingsByNumber, type LatestPing } from '../../monitoring/pings/service.ts';
import { intKey } from '../node-keys.ts';
import { validationError } from '../../shared/errors.ts';

/** Each listed ping's duration in ms (null: none), computed with the window it was listed in. */
const durationOf = new WeakMap<object, number | null>();

/** Per request, one loader per variant (first, body, durations): 100 checks are one statement. */
const loaders = new WeakMap<object, Map<string, DataLoader<number, LatestPing[]>>>();

/**
 * Pings one request may ask for, counted as checks × `first`. The query cost limit cannot
 * see page sizes passed as variables; this can. A dashboard of 100 checks × 10 pings is 1,000.
 */
export const PINGS_PER_REQUEST = 20_000;
const requested = new WeakMap<GraphQLContext, number>();

function spend(ctx: GraphQLContext, pings: number) {
  const total = (requested.get(ctx) ?? 0) + pings;
  requested.set(ctx, total);
  if (total > PINGS_PER_REQUEST) {
    throw validationError(`this query asks for up to ${total} pings, more than ${PINGS_PER_REQUEST}: ask for fewer checks or fewer pings per check`);
  }
}

/** The newest `first` pings of a check, loaded together with those of every check beside it. */
export function listedPings(ctx: GraphQLContext, checkId: number, first: number, info: GraphQLResolveInfo): Promise<LatestPing[]> {
  // Bodies can be large: read only when the query asks for one. Durations are paired within
  // each check's window (Healthchecks' prepare_durations), only when asked for too.
  const { withBody, withDurations } = selectionOf(info);
  const scope = executionScope(ctx, info);
  let byVariant = loaders.get(scope);
  if (!byVariant) loaders.set(scope, (byVariant = new Map()));
  const key = `${first}:${withBody}:${withDurations}`;
  let loader = byVariant.get(key);
  if (!loader) {
    loader = new DataLoader(async (checkIds: readonly number[]) => {
      spend(ctx, checkIds.length * Math.max(0, Math.min(first, PING_LIST_MAX)));
      const byCheck = await latestPings(ctx.deps, await ctx.access(), checkIds, { first, withBody });
      return Promise.all(
        checkIds.map(async (id) => {
          const pings = byCheck.get(id) ?? [];
          // The window came with its look-backs, so this reads nothing more; `duration` then
          // resolves synchronously, which spares graphql-js a promise per ping.
          if (withDurations) (await pingDurations(ctx.deps, id, pings)).forEach((ms, i) => durationOf.set(pings[i]!, ms));
          return pings;
        }),
      );
    });
    byVariant.set(key, loader);
  }
  return loader.load(checkId);
}

/**
 * What the `pings` field asks for. Sibling checks of a list share one `fieldNodes` array, so a
 * page of 100 checks walks the selection once, not once per check.
 */
const selections = new WeakMap<GraphQLResolveInfo['fieldNodes'], { withBody: boolean; withDurations: boolean }>();
function selectionOf(info: GraphQLResolveInfo) {
  let found = selections.get(info.fieldNodes);
  if (!found) selections.set(info.fieldNodes, (found = { withBody: selects(info, 'body'), withDurations: selects(info, 'duration') }));
  return found;
}

/** Whether the document selects `name` under the field `info` resolves (fragments included). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  const visit = (set: SelectionSetNode | undefined): boolean =>
    !!set?.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return visit(s.selectionSet);
      return visit(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((f) => visit(f.selectionSet));
}

/** A ping's key in its global ID: the check's row id and the ping's serial number ("12:345"). */
function pingKey(key: string): { checkId: number; n: number } | null {
  const [checkId, n, ...rest] = key.split(':').map(intKey);
  return checkId && n && rest.length === 0 ? { checkId, n } : null;
}

// A plain object type, not a Prisma one: listed pings come from latestPings' window query and
// live ones from ingest, never from a Prisma relation, so there is nothing for the plugin to plan.
// Its identity is (check, n), which live pings have too (their row id is not known yet).
export const Ping = builder.node(builder.objectRef<LatestPing>('Ping'), {
  id: { resolve: (p) => `${p.checkId}:${p.n}`, parse: pingKey as (key: string) => { checkId: number; n: number } },
  // As Check.pings: read-write keys of the check's project, within the listed window.
  loadMany: async (refs, ctx: GraphQLContext) => pingsByNumber(ctx.deps, await ctx.access(), refs),
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
    duration: t.float({
      nullable: true,
      description: 'Seconds since the matching start ping (success and fail pings), as REST\'s `duration`',
      resolve: (p, _a, ctx) => {
        const ms = durationOf.get(p);
        if (ms !== undefined) return ms === null ? null : ms / 1000;
        // A ping outside a listed window (a live subscription event) stands alone: the domain
        // then looks back for its start.
        return pingDurations(ctx.deps, p.checkId, [p]).then(([alone]) => (alone === null || alone === undefined ? null : alone / 1000));
      },
    }),
    body: t.string({
      nullable: true,
      description: 'The stored body as UTF-8 text (bytes are verbatim over REST)',
      // Listed pings carry their body when this field is selected (listedPings), live ones always.
      resolve: (p) => (p.body && p.body.length ? Buffer.from(p.body).toString('utf8') : null),
    }),
  }),
});
