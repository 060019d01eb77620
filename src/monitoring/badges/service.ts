// Badge data: the project's badge URLs (API) and the state behind each badge URL (public).
import { notFound } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { checkState, tagList } from '../checks/derived.ts';
import { holdsNul } from '../../shared/stored-text.ts';
import {
  badgeUrls,
  checkBadgeSummary,
  summarizeBadge,
  verifyBadgeSignature,
  type BadgeUrls,
} from './badge.ts';

/** `{"*": urls, "<tag>": urls, ...}` for every tag used by the project's checks. */
export async function listBadges(deps: MonitoringDeps, access: ProjectAccess): Promise<Record<string, BadgeUrls>> {
  const project = await deps.db.project.findUniqueOrThrow({ where: { id: access.projectId }, select: { id: true, badgeKeyHash: true } });
  const checks = await deps.db.check.findMany({ where: { projectId: project.id }, select: { tags: true }, orderBy: { id: 'asc' } });
  const tags = new Set<string>(['*']);
  for (const c of checks) for (const t of tagList(c.tags)) tags.add(t);
  const out: Record<string, BadgeUrls> = {};
  for (const tag of [...tags].sort()) out[tag] = badgeUrls(deps.settings.siteRoot, project.id, project.badgeKeyHash, tag);
  return out;
}

/** The summary behind /badge/<project>/<signature>[/<tag>].<fmt>; 404 when the signature is wrong. */
export async function projectBadge(deps: MonitoringDeps, projectId: string, signature: string, tag: string) {
  // A NUL names no project; PostgreSQL would fail the query on it (a 500) instead of finding none.
  if (holdsNul(projectId)) throw notFound();
  const project = await deps.db.project.findUnique({ where: { id: projectId }, select: { id: true, badgeKeyHash: true } });
  if (!project) throw notFound();
  const { valid, states } = verifyBadgeSignature(project.badgeKeyHash, tag, signature);
  if (!valid) throw notFound();
  const where = tag === '*' ? { projectId } : { projectId, tags: { contains: tag } };
  const now = deps.clock.now();
  const checks = (await deps.db.check.findMany({ where, orderBy: { id: 'asc' } })).filter(
    (c) => tag === '*' || tagList(c.tags).includes(tag),
  );
  return { label: tag, states, summary: summarizeBadge(checks.map((c) => checkState(c, now).status), states) };
}

/** The summary behind /b/<states>/<check badge key>.<fmt>; labelled with the check's name. */
export async function checkBadge(deps: MonitoringDeps, badgeKey: string, states: number) {
  if (holdsNul(badgeKey)) throw notFound();
  const check = await deps.db.check.findUnique({ where: { badgeKey } });
  if (!check) throw notFound();
  const status = checkState(check, deps.clock.now()).status;
  return { label: check.name || check.code, summary: checkBadgeSummary(status, states) };
}
