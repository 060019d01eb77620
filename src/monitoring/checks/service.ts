// Check behaviour shared by the REST compatibility layer and GraphQL: one implementation,
// two transports. Every function takes the caller's ProjectAccess and enforces it here.
import { randomUUID } from 'node:crypto';
import type { Check, Prisma } from '../../generated/prisma/client.ts';
import { conflict, notFound, OtherProjectError, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { writableProject } from '../access.ts';
import { resolveChannelIdentifiers } from '../integrations/channel-identifiers.ts';
import { writeWithEvents } from '../write-events.ts';
import { applySpec, checkDefaults, uniqueFilter, type CheckFields } from './apply-spec.ts';
import { checkState, tagList, uniqueKeyFor } from './derived.ts';
import { goingDownAfter } from './status.ts';
import { parseCheckSpec, type CheckSpec } from './validate.ts';
import { syncRecordLinks } from '../../links/store.ts';
import { recordTagsOf } from '../../links/tags.ts';
import { holdsNul } from '../../shared/stored-text.ts';
import { recordAudit } from '../audit/service.ts';

export const checkWithChannels = { channels: { select: { channel: { select: { code: true } } } } } as const;
export type CheckRecord = Prisma.CheckGetPayload<{ include: typeof checkWithChannels }>;

export function channelCodes(check: CheckRecord): string[] {
  return check.channels.map((c) => c.channel.code).sort();
}

const requireWrite = (access: ProjectAccess) => void writableProject(access);

export interface ListChecksFilter {
  tags?: string[];
  slug?: string;
  status?: string[];
}

/** One page of checks, oldest first: `first` checks after the check whose unique key is `after`. */
export interface ChecksPageRequest {
  first: number;
  after?: string | null;
  /** Relations to load with the page's checks (GraphQL passes what its query selects). */
  include?: Prisma.CheckInclude;
  /**
   * Columns to read, when the caller uses no others (GraphQL passes those its query's fields
   * read); whole rows when absent. The rows are typed whole either way: only the caller knows
   * which of their fields it will look at.
   */
  columns?: readonly (keyof Check)[];
}

/** findMany's shape for a page: whole rows with their relations, or only the columns asked. */
function pageRows(page: ChecksPageRequest): { include?: Prisma.CheckInclude } | { select: Prisma.CheckSelect } {
  if (!page.columns) return { include: page.include };
  const select: Prisma.CheckSelect = { ...page.include };
  for (const c of page.columns) select[c] = true;
  return { select };
}

export interface ChecksPage {
  checks: Check[];
  hasNextPage: boolean;
  /** Checks matching the filter, all pages; counted only when asked for. */
  total(): Promise<number>;
}

/** Every check of the project matching `filter`, oldest first, with its channels. */
export function listChecks(deps: MonitoringDeps, access: ProjectAccess, filter?: ListChecksFilter): Promise<CheckRecord[]>;
/** One page of them; the filter applies before paging. */
export function listChecks(deps: MonitoringDeps, access: ProjectAccess, filter: ListChecksFilter, page: ChecksPageRequest): Promise<ChecksPage>;
export async function listChecks(
  deps: MonitoringDeps,
  access: ProjectAccess,
  filter: ListChecksFilter = {},
  page?: ChecksPageRequest,
): Promise<CheckRecord[] | ChecksPage> {
  checkFilter(filter);
  // No check's unique key holds NUL (and PostgreSQL could not compare one): such a cursor names
  // nothing, like any other unknown one.
  if (page?.after && holdsNul(page.after)) throw validationError('unknown cursor');
  const where = checksWhere(access, filter);
  if (!page) return filterChecks(deps, filter, await deps.db.check.findMany({ where, orderBy: { id: 'asc' }, include: checkWithChannels }));
  // Tags match exactly and status is computed from the clock: neither can be cut in SQL, so
  // the page is cut from the whole filtered list.
  if (filter.tags?.length || filter.status?.length) {
    const all = filterChecks(deps, filter, await deps.db.check.findMany({ where, orderBy: { id: 'asc' } }));
    let start = 0;
    if (page.after) {
      start = all.findIndex((c) => c.uniqueKey === page.after) + 1;
      if (start === 0) throw validationError('unknown cursor');
    }
    let checks = all.slice(start, start + page.first);
    // The relations of the page only (same rows, read again with them). Without relations the
    // whole rows at hand serve as they are: fewer columns would not be worth a second read.
    if (page.include && Object.keys(page.include).length && checks.length) {
      checks = (await deps.db.check.findMany({ where: { id: { in: checks.map((c) => c.id) } }, orderBy: { id: 'asc' }, ...pageRows(page) })) as Check[];
    }
    return { checks, hasNextPage: start + page.first < all.length, total: async () => all.length };
  }
  // Unfiltered, the page is read alone. The cursor is a check (its unique key, which read-only
  // keys may see), not an offset, so the page starts after its id.
  let afterId: number | undefined;
  if (page.after) {
    const cursor = await deps.db.check.findFirst({ where: { ...where, uniqueKey: page.after }, select: { id: true } });
    if (!cursor) throw validationError('unknown cursor');
    afterId = cursor.id;
  }
  const rows = (await deps.db.check.findMany({
    where: afterId === undefined ? where : { ...where, id: { gt: afterId } },
    orderBy: { id: 'asc' },
    take: page.first + 1,
    ...pageRows(page),
  })) as Check[];
  return { checks: rows.slice(0, page.first), hasNextPage: rows.length > page.first, total: () => deps.db.check.count({ where }) };
}

/**
 * Bounds on a list filter, the same for REST's `?tag=`/`?slug=` and GraphQL's CheckFilter. A
 * tag or slug longer than the field it is matched against (tags hold 500 characters, a slug
 * 100) can match nothing, and each tag becomes a LIKE pattern: SQLite refuses patterns past
 * 50,000 bytes and expressions nested past 1,000 terms.
 */
export const FILTER_MAX_TAGS = 100;
export const FILTER_TAG_MAX_CHARS = 500;
export const FILTER_SLUG_MAX_CHARS = 100;
const FILTER_MAX_STATUSES = 10;

function checkFilter(filter: ListChecksFilter) {
  if ((filter.tags?.length ?? 0) > FILTER_MAX_TAGS) throw validationError(`too many tags: at most ${FILTER_MAX_TAGS}`);
  if (filter.tags?.some((t) => t.length > FILTER_TAG_MAX_CHARS)) throw validationError(`tag is too long: at most ${FILTER_TAG_MAX_CHARS} characters`);
  if ((filter.slug?.length ?? 0) > FILTER_SLUG_MAX_CHARS) throw validationError(`slug is too long: at most ${FILTER_SLUG_MAX_CHARS} characters`);
  if ((filter.status?.length ?? 0) > FILTER_MAX_STATUSES) throw validationError(`too many statuses: at most ${FILTER_MAX_STATUSES}`);
}

function checksWhere(access: ProjectAccess, filter: ListChecksFilter): Prisma.CheckWhereInput {
  const where: Prisma.CheckWhereInput = { projectId: access.projectId };
  // No slug or tag holds NUL (PostgreSQL text cannot), so such a filter matches nothing; sent
  // to PostgreSQL it would fail the query (a 500) instead.
  if ((filter.slug !== undefined && holdsNul(filter.slug)) || filter.tags?.some((t) => holdsNul(t))) return { ...where, id: { in: [] } };
  if (filter.slug) where.slug = filter.slug;
  // Tag filters are exact and AND-ed; a LIKE narrows the rows, the split makes it exact.
  const tags = [...new Set(filter.tags ?? [])];
  if (tags.length) where.AND = tags.map((t) => ({ tags: { contains: t } }));
  return where;
}

function filterChecks<C extends Check>(deps: MonitoringDeps, filter: ListChecksFilter, checks: C[]): C[] {
  const tags = [...new Set(filter.tags ?? [])];
  if (tags.length) checks = checks.filter((c) => tags.every((t) => tagList(c.tags).includes(t)));
  if (filter.status?.length) {
    const now = deps.clock.now();
    checks = checks.filter((c) => filter.status!.includes(checkState(c, now).status));
  }
  return checks;
}

/** By UUID: another project's check is 403, a missing one 404 (Healthchecks' order). */
export async function getCheck(deps: MonitoringDeps, access: ProjectAccess, code: string): Promise<CheckRecord> {
  // A NUL names no check; PostgreSQL would fail the query on it (a 500) instead of finding none.
  if (holdsNul(code)) throw notFound();
  const check = await deps.db.check.findUnique({ where: { code }, include: checkWithChannels });
  if (!check) throw notFound();
  if (check.projectId !== access.projectId) throw new OtherProjectError();
  return check;
}

/** By unique_key: scoped to the caller's project, so another project's check is simply 404. */
export async function getCheckByUniqueKey(deps: MonitoringDeps, access: ProjectAccess, uniqueKey: string) {
  if (holdsNul(uniqueKey)) throw notFound();
  const check = await deps.db.check.findFirst({
    where: { uniqueKey, projectId: access.projectId },
    include: checkWithChannels,
  });
  if (!check) throw notFound();
  return check;
}

async function resolveChannels(tx: Prisma.TransactionClient, projectId: string, spec: CheckSpec) {
  if (spec.channels === undefined) return undefined;
  const channels = await tx.channel.findMany({ where: { projectId }, select: { id: true, code: true, name: true }, orderBy: { id: 'asc' } });
  const codes = resolveChannelIdentifiers(spec.channels, channels);
  return channels.filter((c) => codes.includes(c.code)).map((c) => c.id);
}

function fieldsOf(check: CheckFields): CheckFields {
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(checkDefaults)) out[key] = (check as unknown as Record<string, unknown>)[key];
  return out as unknown as CheckFields;
}

export interface SaveResult {
  check: CheckRecord;
  created: boolean;
}

/** Create, or with `unique` update the first matching check (Healthchecks' upsert). */
export async function createCheck(
  deps: MonitoringDeps,
  access: ProjectAccess,
  body: unknown,
  apiVersion = 2,
): Promise<SaveResult> {
  requireWrite(access);
  const spec = parseCheckSpec(body);
  const now = deps.clock.now();
  return writeWithEvents(deps, async (tx, events) => {
    const lookup = uniqueFilter(spec);
    const found = lookup
      ? await tx.check.findFirst({ where: { projectId: access.projectId, ...lookup }, orderBy: { id: 'asc' } })
      : null;
    const match = found ? await lockedCheck(deps, tx, found.id) : found;
    // Channels resolve before anything is written, so a bad identifier changes nothing.
    const channelIds = await resolveChannels(tx, access.projectId, spec);
    if (match) {
      const { check, changed } = await saveExisting(tx, match, spec, apiVersion, channelIds);
      await auditUpdate(tx, access, check, changed, now);
      events.changed('updated', check);
      return { check, created: false };
    }
    const fields = applySpec(checkDefaults, spec, apiVersion);
    const code = randomUUID();
    const timing = { ...fields, status: 'new', lastPing: null, lastStart: null };
    const check = await tx.check.create({
      data: {
        ...fields,
        code,
        uniqueKey: uniqueKeyFor(code),
        badgeKey: randomUUID(),
        projectId: access.projectId,
        createdAt: now,
        alertAfter: goingDownAfter(timing),
        channels: channelIds ? { create: channelIds.map((channelId) => ({ channelId })) } : undefined,
      },
      include: checkWithChannels,
    });
    // Tags of the campus:<kind>/<id> convention link the check to records (src/links/).
    if (recordTagsOf(check.tags).length) await syncRecordLinks(tx, check.id, check.tags);
    await recordAudit(tx, access.actor, access.projectId, { action: 'check.created', targetKind: 'check', targetId: check.code, targetName: check.name }, now);
    events.changed('created', check);
    return { check, created: true };
  });
}

/**
 * The check as stored, held until the transaction ends: alertAfter is recomputed from it, and a
 * ping committing in between (PostgreSQL runs writers side by side) would leave it computed
 * from the old state.
 */
async function lockedCheck(deps: MonitoringDeps, tx: Prisma.TransactionClient, id: number): Promise<Check | null> {
  await deps.storage.locks.check(tx, id);
  return tx.check.findUnique({ where: { id } });
}

interface SavedExisting {
  check: CheckRecord;
  /** The names of the fields whose value changed ('channels' for the set of channels). */
  changed: string[];
}

async function saveExisting(
  tx: Prisma.TransactionClient,
  existing: Omit<CheckRecord, 'channels'>,
  spec: CheckSpec,
  apiVersion: number,
  channelIds: number[] | undefined,
): Promise<SavedExisting> {
  const before = fieldsOf(existing);
  const fields = applySpec(before, spec, apiVersion);
  const changed: string[] = (Object.keys(before) as (keyof CheckFields)[]).filter((k) => before[k] !== fields[k]);
  const alertAfter = goingDownAfter({ ...existing, ...fields });
  if (channelIds) {
    const old = await tx.checkChannel.findMany({ where: { checkId: existing.id }, select: { channelId: true } });
    if (!sameIds(old.map((c) => c.channelId), channelIds)) changed.push('channels');
    await tx.checkChannel.deleteMany({ where: { checkId: existing.id } });
  }
  // Links follow the tags whenever tags are written (even unchanged: unresolved ones retry).
  if (spec.tags !== undefined) await syncRecordLinks(tx, existing.id, fields.tags);
  const check = await tx.check.update({
    where: { id: existing.id },
    data: {
      ...fields,
      alertAfter,
      channels: channelIds ? { create: channelIds.map((channelId) => ({ channelId })) } : undefined,
    },
    include: checkWithChannels,
  });
  return { check, changed };
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * check.updated with the names of the fields that changed, not their values (a description or
 * a keyword may be private). An update that changes nothing (a provisioning script re-sending
 * its checks with `unique`) records nothing.
 */
async function auditUpdate(tx: Prisma.TransactionClient, access: ProjectAccess, check: CheckRecord, changed: string[], at: Date) {
  if (!changed.length) return;
  await recordAudit(tx, access.actor, access.projectId, { action: 'check.updated', targetKind: 'check', targetId: check.code, targetName: check.name, detail: { fields: changed } }, at);
}

/** Partial update: omitted fields keep their values. Updates never change status. */
export async function updateCheck(
  deps: MonitoringDeps,
  access: ProjectAccess,
  code: string,
  body: unknown,
  apiVersion = 2,
): Promise<CheckRecord> {
  requireWrite(access);
  const existing = await getCheck(deps, access, code);
  const spec = parseCheckSpec(body);
  const now = deps.clock.now();
  return writeWithEvents(deps, async (tx, events) => {
    const channelIds = await resolveChannels(tx, access.projectId, spec);
    const current = await lockedCheck(deps, tx, existing.id);
    if (!current) throw notFound();
    const { check, changed } = await saveExisting(tx, current, spec, apiVersion, channelIds);
    await auditUpdate(tx, access, check, changed, now);
    events.changed('updated', check);
    return check;
  });
}

export async function pauseCheck(deps: MonitoringDeps, access: ProjectAccess, code: string): Promise<CheckRecord> {
  requireWrite(access);
  const check = await getCheck(deps, access, code);
  if (check.status === 'paused') return check;
  const now = deps.clock.now();
  return writeWithEvents(deps, async (tx, events) => {
    // Compare-and-set on the status read above: a ping racing the pause cannot be overwritten.
    const result = await tx.check.updateMany({
      where: { id: check.id, status: check.status },
      data: { status: 'paused', lastStart: null, lastStartRid: null, alertAfter: null },
    });
    if (result.count === 0) throw conflict('check changed concurrently, try again');
    await tx.flip.create({ data: { checkId: check.id, createdAt: now, oldStatus: check.status, newStatus: 'paused', processed: now } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'check.paused', targetKind: 'check', targetId: check.code, targetName: check.name }, now);
    const updated = await tx.check.findUniqueOrThrow({ where: { id: check.id }, include: checkWithChannels });
    events.flips([{ check, oldStatus: check.status, newStatus: 'paused', at: now, reason: '', processed: now }]);
    events.changed('paused', updated);
    return updated;
  });
}

export async function resumeCheck(deps: MonitoringDeps, access: ProjectAccess, code: string): Promise<CheckRecord> {
  requireWrite(access);
  const check = await getCheck(deps, access, code);
  if (check.status !== 'paused') throw conflict('check is not paused');
  const now = deps.clock.now();
  return writeWithEvents(deps, async (tx, events) => {
    const result = await tx.check.updateMany({
      where: { id: check.id, status: 'paused' },
      data: { status: 'new', lastStart: null, lastStartRid: null, lastPing: null, alertAfter: null },
    });
    if (result.count === 0) throw conflict('check is not paused');
    await tx.flip.create({ data: { checkId: check.id, createdAt: now, oldStatus: 'paused', newStatus: 'new', processed: now } });
    await recordAudit(tx, access.actor, access.projectId, { action: 'check.resumed', targetKind: 'check', targetId: check.code, targetName: check.name }, now);
    const updated = await tx.check.findUniqueOrThrow({ where: { id: check.id }, include: checkWithChannels });
    events.flips([{ check, oldStatus: 'paused', newStatus: 'new', at: now, reason: '', processed: now }]);
    events.changed('resumed', updated);
    return updated;
  });
}

/** Deletes the check with its pings and flips; returns it as it was just before. */
export async function deleteCheck(deps: MonitoringDeps, access: ProjectAccess, code: string): Promise<CheckRecord> {
  requireWrite(access);
  const check = await getCheck(deps, access, code);
  const now = deps.clock.now();
  // The delete and its entry commit together. A delete that found the check already gone (a
  // concurrent delete, which records its own entry) records nothing.
  await writeWithEvents(deps, async (tx, events) => {
    const result = await tx.check.deleteMany({ where: { id: check.id } });
    if (result.count) await recordAudit(tx, access.actor, access.projectId, { action: 'check.deleted', targetKind: 'check', targetId: check.code, targetName: check.name }, now);
    // Published even when a concurrent delete got there first, as before.
    events.changed('deleted', check);
  });
  return check;
}
