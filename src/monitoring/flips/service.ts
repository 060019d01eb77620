import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { getCheck, getCheckByUniqueKey } from '../checks/service.ts';
import { parseFlipsQuery, type FlipsFilter } from './flips-query.ts';

export interface FlipsQuery {
  seconds?: string;
  start?: string;
  end?: string;
}

/** A check's flips, newest first, filtered as Healthchecks' FlipsFiltersForm allows. */
export async function listFlips(
  deps: MonitoringDeps,
  access: ProjectAccess,
  ref: { code: string } | { uniqueKey: string },
  query: FlipsQuery = {},
) {
  const check = 'code' in ref ? await getCheck(deps, access, ref.code) : await getCheckByUniqueKey(deps, access, ref.uniqueKey);
  const filter = parseFlipsQuery(query);
  return flipsOf(deps, check.id, filter);
}

/** The createdAt range a flips filter selects: start inclusive, end exclusive, last `seconds`. */
export function flipsRange(filter: FlipsFilter, now: Date): { gte?: Date; lt?: Date } {
  const createdAt: { gte?: Date; lt?: Date } = {};
  if (filter.start !== undefined) createdAt.gte = new Date(filter.start * 1000);
  if (filter.end !== undefined) createdAt.lt = new Date(filter.end * 1000);
  if (filter.seconds) {
    const since = new Date(now.getTime() - filter.seconds * 1000);
    if (!createdAt.gte || since > createdAt.gte) createdAt.gte = since;
  }
  return createdAt;
}

export async function flipsOf(deps: MonitoringDeps, checkId: number, filter: FlipsFilter) {
  const createdAt = flipsRange(filter, deps.clock.now());
  return deps.db.flip.findMany({ where: { checkId, createdAt }, orderBy: { id: 'desc' } });
}
