// Public status pages: a project opts in with a slug (and optionally tags); anyone may then
// read its checks' names, statuses and last pings, and nothing else. Both transports (GraphQL,
// CLI) call these; the server's /status/<slug> route asks whether a page exists.
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../shared/errors.ts';
import type { MonitoringDeps } from '../context.ts';
import { subscribe, type CheckChangedEvent } from '../../events/bus.ts';
import { checkState, tagList } from '../checks/derived.ts';
import type { Status } from '../checks/status.ts';
import { parseStatusPageSettings, type StatusPageSettings } from './validate.ts';
import { holdsNul } from '../../shared/stored-text.ts';

/** What a status page shows of a check: deliberately no id, key, URL, tag or description. */
export interface PublicCheck {
  name: string;
  status: Status;
  lastPing: Date | null;
}

export interface StatusPage {
  slug: string;
  /** The project's name. */
  title: string;
  checks: PublicCheck[];
}

/** Checks listed on one page at most: the page is read whole on every change. */
export const STATUS_PAGE_MAX_CHECKS = 1000;

const NOT_FOUND = 'status page not found';

/** The project's status page settings; null when it has none. */
export function statusPageSettings(project: { statusSlug: string | null; statusTags: string }): StatusPageSettings | null {
  return project.statusSlug === null ? null : { slug: project.statusSlug, tags: tagList(project.statusTags) };
}

/** Publishes (settings) or withdraws (null) the project's status page. */
export async function setStatusPage(db: Db, projectId: string, input: { slug: string; tags?: readonly string[] | null } | null): Promise<StatusPageSettings | null> {
  const settings = input === null ? null : parseStatusPageSettings(input);
  if (settings) {
    const owner = await db.project.findUnique({ where: { statusSlug: settings.slug }, select: { id: true } });
    if (owner && owner.id !== projectId) throw conflict(`status page slug already taken: ${settings.slug}`);
  }
  let count: number;
  try {
    ({ count } = await db.project.updateMany({
      where: { id: projectId },
      data: { statusSlug: settings?.slug ?? null, statusTags: settings?.tags.join(' ') ?? '' },
    }));
  } catch (err) {
    // Another project took the slug between the look-up and the write (the unique index).
    if ((err as { code?: string }).code === 'P2002') throw conflict(`status page slug already taken: ${settings!.slug}`);
    throw err;
  }
  if (count === 0) throw notFound(`project not found: ${projectId}`);
  return settings;
}

/** Lists a check on a page limited to `tags` (none: every check). */
export const listedOn = (tags: readonly string[], checkTags: string) => tags.length === 0 || tagList(checkTags).some((t) => tags.includes(t));

async function pageScope(db: Db, slug: string) {
  // No slug holds NUL; PostgreSQL would fail the look-up on it (a 500) instead of finding none.
  if (holdsNul(slug)) throw notFound(NOT_FOUND);
  const project = await db.project.findUnique({ where: { statusSlug: slug }, select: { id: true, name: true, statusTags: true } });
  // Unknown and withdrawn slugs read the same: nothing tells them apart.
  if (!project) throw notFound(NOT_FOUND);
  return { projectId: project.id, title: project.name, tags: tagList(project.statusTags) };
}

/** Whether /status/<slug> is published (for the HTML route's 404). */
export async function statusPageExists(db: Db, slug: string): Promise<boolean> {
  if (holdsNul(slug)) return false;
  return (await db.project.count({ where: { statusSlug: slug } })) > 0;
}

/** The page as anyone sees it at `now`: checks by name. */
export async function readStatusPage(deps: Pick<MonitoringDeps, 'db'>, slug: string, now: Date): Promise<StatusPage> {
  const scope = await pageScope(deps.db, slug);
  const rows = await deps.db.check.findMany({
    where: { projectId: scope.projectId },
    select: { name: true, tags: true, kind: true, timeout: true, grace: true, schedule: true, tz: true, status: true, lastPing: true, lastStart: true },
    orderBy: { id: 'asc' },
  });
  const checks = rows
    .filter((c) => listedOn(scope.tags, c.tags))
    .slice(0, STATUS_PAGE_MAX_CHECKS)
    .map((c) => ({ name: c.name, status: checkState(c, now).status, lastPing: c.lastPing }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { slug, title: scope.title, checks };
}

/**
 * Signals that the page may have changed: one right away (the subscriber's first state, so
 * nothing falls between its first read and its subscription), then one per change of the
 * project's checks. The buffer holds one signal: each is answered by reading the whole page
 * anew, so a burst of pings coalesces into one read instead of queueing one per ping.
 */
export async function watchStatusPage(deps: Pick<MonitoringDeps, 'db' | 'events'>, slug: string): Promise<AsyncIterableIterator<unknown>> {
  const { projectId, tags } = await pageScope(deps.db, slug);
  // Pings and status changes of checks the page does not list change nothing on it; edits
  // (a tag added or removed, a rename, a delete) may, whatever the check's tags are now.
  const relevant = (e: CheckChangedEvent) => e.projectId === projectId && (!(e.change === 'ping' || e.change === 'status') || listedOn(tags, e.check.tags));
  const changes = subscribe(deps.events, 'checkChanged', relevant, 1);
  let first = true;
  // By hand, not an async generator: a generator's return() waits for its pending next(), so
  // an unsubscribe would hold the listener until the project's next change.
  const signals: AsyncIterableIterator<unknown> = {
    next: () => (first ? ((first = false), Promise.resolve({ value: null, done: false })) : changes.next()),
    return: () => changes.return!(),
    throw: (err?: unknown) => changes.throw!(err),
    [Symbol.asyncIterator]: () => signals,
  };
  return signals;
}
