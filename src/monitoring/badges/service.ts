// Badge data: the project's badge URLs (API) and the state behind each badge URL (public).
import { notFound } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { checkState, tagList } from '../checks/derived.ts';
import { holdsNul } from '../../shared/stored-text.ts';
import { secretKey } from '../secret-key.ts';
import { ensureProjectBadgeKey } from './keys.ts';
import {
  badgeUrls,
  checkBadgeSummary,
  legacySigningKey,
  projectSigningKey,
  summarizeBadge,
  verifyBadgeSignature,
  type BadgeUrls,
} from './badge.ts';

/**
 * `{"*": urls, "<tag>": urls, ...}` for every tag used by the project's checks, in Healthchecks'
 * form: /badge/<badge key>/<signature>[-2][/<tag>].<fmt>.
 */
export async function listBadges(deps: MonitoringDeps, access: ProjectAccess): Promise<Record<string, BadgeUrls>> {
  const { badgeKey, badgeSigningKey } = await ensureProjectBadgeKey(deps.db, access.projectId);
  const signingKey = projectSigningKey(badgeKey, badgeSigningKey, await secretKey(deps.db, deps.settings.secretKey));
  const checks = await deps.db.check.findMany({ where: { projectId: access.projectId }, select: { tags: true }, orderBy: { id: 'asc' } });
  const tags = new Set<string>(['*']);
  for (const c of checks) for (const t of tagList(c.tags)) tags.add(t);
  const out: Record<string, BadgeUrls> = {};
  for (const tag of [...tags].sort()) out[tag] = badgeUrls(deps.settings.siteRoot, badgeKey, signingKey, tag);
  return out;
}

/** The project a badge URL names, and how many states it shows; null when the signature is wrong. */
async function signedProject(deps: MonitoringDeps, key: string, signature: string, tag: string): Promise<{ projectId: string; states: 2 | 3 } | null> {
  // Healthchecks' form: the project's badge key, signed with SECRET_KEY (or the imported key).
  const byKey = await deps.db.project.findUnique({ where: { badgeKey: key }, select: { id: true, badgeSigningKey: true } });
  if (byKey) {
    const signingKey = projectSigningKey(key, byKey.badgeSigningKey, await secretKey(deps.db, deps.settings.secretKey));
    const { valid, states } = verifyBadgeSignature(signingKey, tag, signature);
    if (valid) return { projectId: byKey.id, states };
  }
  // The form issued before badge keys were stored: the project's id, signed with the key's hash.
  const byId = await deps.db.project.findUnique({ where: { id: key }, select: { id: true, badgeKeyHash: true } });
  if (byId) {
    const { valid, states } = verifyBadgeSignature(legacySigningKey(byId.badgeKeyHash), tag, signature);
    if (valid) return { projectId: byId.id, states };
  }
  return null;
}

/**
 * The summary behind /badge/<badge key or project id>/<signature>[/<tag>].<fmt>; 404 when the
 * signature is wrong. (Healthchecks checks the signature before the key, so a deleted project's
 * URLs still answer "up" with no checks there; here they are 404: the key is what signs.)
 */
export async function projectBadge(deps: MonitoringDeps, key: string, signature: string, tag: string) {
  // A NUL names no project; PostgreSQL would fail the query on it (a 500) instead of finding none.
  if (holdsNul(key)) throw notFound();
  const signed = await signedProject(deps, key, signature, tag);
  if (!signed) throw notFound();
  const { projectId, states } = signed;
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
