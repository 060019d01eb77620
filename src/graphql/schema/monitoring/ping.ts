// The Ping type and the per-request loader that lists pings with their durations.
import DataLoader from 'dataloader';
import { getArgumentValues, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import { executionScope } from '../execution-scope.ts';
import { selectedFields } from '../selected-fields.ts';
import type { GraphQLContext } from '../context.ts';
import { PING_LIST_MAX, latestPings, pingDurations, pingsByNumber, type LatestPing } from '../../../monitoring/pings/service.ts';
import { intKey } from '../node-keys.ts';
import { validationError } from '../../../shared/errors.ts';
import { pageArgument } from '../pagination.ts';

/**
 * A ping as the Ping type resolves it: listed ones carry their duration in ms (null: none),
 * computed with the window they were listed in. A property on the request's own objects, not a
 * WeakMap beside them: a dashboard resolves a thousand of these, and each WeakMap entry cost a
 * look-up per field and an ephemeron for the garbage collector to trace.
 */
export type ListedPing = LatestPing & { durationMs?: number | null };

/** Per execution, one loader per variant (first, body, durations): 100 checks are one statement. */
const loaders = new WeakMap<object, Map<string, DataLoader<number, ListedPing[]>>>();

/**
 * Per execution and variant, the lists a batch has loaded, by check: a `pings` field resolved
 * after its batch (Project.checks prefetches it) answers synchronously, so a page of 100 checks
 * costs graphql-js no promise per check, nor the async completion of each check object.
 */
const loaded = new WeakMap<object, Map<string, Map<number, ListedPing[]>>>();

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

/** What a `pings` field asks of its pings, besides their number: it decides what is read. */
interface Selected {
  withBody: boolean;
  withDurations: boolean;
  /** Any of the fields that read DETAIL_FIELDS' columns (else latestPings leaves them unread). */
  withDetails: boolean;
}

interface Variant extends Selected {
  first: number;
  /** The checks' project (a signed-in person may read several in one request). */
  projectId: string;
}

const DETAIL_FIELDS = new Set(['scheme', 'remoteAddr', 'method', 'ua', 'exitStatus']);

const variantKey = (v: Variant) => `${v.projectId}:${v.first}:${v.withBody}:${v.withDurations}:${v.withDetails}`;

function loaderFor(ctx: GraphQLContext, scope: object, variant: Variant): DataLoader<number, ListedPing[]> {
  const { first, withBody, withDurations, withDetails, projectId } = variant;
  let byVariant = loaders.get(scope);
  if (!byVariant) loaders.set(scope, (byVariant = new Map()));
  const key = variantKey(variant);
  let loader = byVariant.get(key);
  if (!loader) {
    loader = new DataLoader(async (checkIds: readonly number[]) => {
      let byCheck: Map<number, ListedPing[]>;
      try {
        spend(ctx, checkIds.length * Math.max(0, Math.min(first, PING_LIST_MAX)));
        byCheck = await latestPings(ctx.deps, await ctx.access(projectId), checkIds, { first, withBody, withDetails });
      } catch (err) {
        // As values, not thrown: DataLoader forgets the keys of a batch that throws, and the
        // fields would then load (and count against PINGS_PER_REQUEST) a second time.
        return checkIds.map(() => err as Error);
      }
      let done = loaded.get(scope);
      if (!done) loaded.set(scope, (done = new Map()));
      let lists = done.get(key);
      if (!lists) done.set(key, (lists = new Map()));
      return Promise.all(
        checkIds.map(async (id) => {
          const pings: ListedPing[] = byCheck.get(id) ?? [];
          // The window came with its look-backs, so this reads nothing more; `duration` then
          // resolves synchronously, which spares graphql-js a promise per ping.
          if (withDurations) (await pingDurations(ctx.deps, id, pings)).forEach((ms, i) => (pings[i]!.durationMs = ms));
          lists.set(id, pings);
          return pings;
        }),
      );
    });
    byVariant.set(key, loader);
  }
  return loader;
}

/**
 * The newest `first` pings of a check, loaded together with those of every check beside it:
 * the list itself when its batch has already been read (see `loaded`), else a promise of it.
 */
export function listedPings(ctx: GraphQLContext, checkId: number, first: number, info: GraphQLResolveInfo, projectId: string): ListedPing[] | Promise<ListedPing[]> {
  // Bodies can be large: read only when the query asks for one. Durations are paired within
  // each check's window (Healthchecks' prepare_durations), only when asked for too.
  const variant = { first, projectId, ...selectionOf(info) };
  const scope = executionScope(ctx, info);
  return loaded.get(scope)?.get(variantKey(variant))?.get(checkId) ?? loaderFor(ctx, scope, variant).load(checkId);
}

/**
 * Loads, in one batch per variant, the pings every `pings` field under `info` (a field whose
 * type is a list of checks) will ask for, so that those fields then resolve without a promise.
 * Only for a read-write key (others are refused the field), only for fields without directives
 * (a skipped field would read for nothing) and with valid arguments: whatever it passes over, or
 * whatever fails, the field itself then loads or reports at its own path, as it would have.
 */
export async function prefetchListedPings(ctx: GraphQLContext, info: GraphQLResolveInfo, checkIds: readonly number[], projectId: string): Promise<void> {
  if (checkIds.length === 0) return;
  const access = await ctx.access(projectId).catch(() => null);
  if (!access || access.readOnly) return;
  const field = (info.schema.getType('Check') as GraphQLObjectType | undefined)?.getFields().pings;
  if (!field) return;
  const byKey = new Map<string, FieldNode[]>();
  for (const s of selectedFields(info.fieldNodes, info.fragments)) {
    const key = s.alias?.value ?? s.name.value;
    if (s.name.value === 'pings') byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  const scope = executionScope(ctx, info);
  const batches: Promise<unknown>[] = [];
  for (const nodes of byKey.values()) {
    if (nodes.some((n) => n.directives?.length)) continue;
    let first: number;
    try {
      first = pageArgument('first', getArgumentValues(field, nodes[0]!, info.variableValues).first as number | null | undefined, PING_LIST_MAX) ?? 100;
    } catch {
      continue;
    }
    const variant = { first, projectId, ...selected(nodes, info) };
    // loadMany settles every key (errors as values): a failed batch is the field's to report.
    batches.push(loaderFor(ctx, scope, variant).loadMany(checkIds));
  }
  await Promise.all(batches);
}

/**
 * What the `pings` field asks for. Sibling checks of a list share one `fieldNodes` array, so a
 * page of 100 checks walks the selection once, not once per check.
 */
const selections = new WeakMap<GraphQLResolveInfo['fieldNodes'], Selected>();
function selectionOf(info: GraphQLResolveInfo): Selected {
  let found = selections.get(info.fieldNodes);
  if (!found) selections.set(info.fieldNodes, (found = selected(info.fieldNodes, info)));
  return found;
}

/** What the document selects under `fieldNodes` (fragments included; directives count as asked). */
function selected(fieldNodes: readonly FieldNode[], info: Pick<GraphQLResolveInfo, 'fragments'>): Selected {
  const found: Selected = { withBody: false, withDurations: false, withDetails: false };
  for (const { name } of selectedFields(fieldNodes, info.fragments)) {
    if (name.value === 'body') found.withBody = true;
    else if (name.value === 'duration') found.withDurations = true;
    else if (DETAIL_FIELDS.has(name.value)) found.withDetails = true;
  }
  return found;
}

/** A ping's key in its global ID: the check's row id and the ping's serial number ("12:345"). */
function pingKey(key: string): { checkId: number; n: number } | null {
  const [checkId, n, ...rest] = key.split(':').map(intKey);
  return checkId && n && rest.length === 0 ? { checkId, n } : null;
}

// A plain object type, not a Prisma one: listed pings come from latestPings' window query and
// live ones from ingest, never from a Prisma relation, so there is nothing for the plugin to plan.
// Its identity is (check, n), which live pings have too (their row id is not known yet).
export const Ping = builder.node(builder.objectRef<ListedPing>('Ping'), {
  id: { resolve: (p) => `${p.checkId}:${p.n}`, parse: pingKey as (key: string) => { checkId: number; n: number } },
  // As Check.pings: read-write keys of the check's project, within the listed window.
  loadMany: async (refs, ctx: GraphQLContext) => {
    if (!(await ctx.signedIn())) return pingsByNumber(ctx.deps, await ctx.access(), refs);
    // A signed-in person: each ping through the access to its check's project.
    const checks = await ctx.deps.db.check.findMany({ where: { id: { in: [...new Set(refs.map((r) => r.checkId))] } }, select: { id: true, projectId: true } });
    const projectOf = new Map(checks.map((c) => [c.id, c.projectId]));
    const found = new Map<string, LatestPing | null>();
    for (const projectId of new Set(projectOf.values())) {
      const mine = refs.filter((r) => projectOf.get(r.checkId) === projectId);
      const access = await ctx.access(projectId).catch(() => null);
      const pings = access && !access.readOnly ? await pingsByNumber(ctx.deps, access, mine) : mine.map(() => null);
      mine.forEach((r, i) => found.set(`${r.checkId}:${r.n}`, pings[i] ?? null));
    }
    return refs.map((r) => found.get(`${r.checkId}:${r.n}`) ?? null);
  },
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
        const ms = p.durationMs;
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
