// Linking a check to a campus record and unlinking it. The check's tags are the truth (REST
// shows them unchanged, and a Healthchecks script can set them), so both operations write the
// tags through the checks service, which keeps the link table in step (store.ts) and announces
// the change. Each side keeps its own rule: a read-write key of the check's project, and a
// campus caller who may read the record.
import type { MonitoringDeps, ProjectAccess } from '../monitoring/context.ts';
import { writableProject } from '../monitoring/access.ts';
import { getCheck, updateCheck, type CheckRecord } from '../monitoring/checks/service.ts';
import { getRecord, type CampusDeps, type CampusRecord } from '../campus/service.ts';
import type { Viewer } from '../campus/auth.ts';
import { KINDS, type KindName } from '../campus/kinds.ts';
import type { Db } from '../db/client.ts';
import { identCandidates, LINKABLE_KINDS, recordTag, recordTagsOf, withoutTags, withTag } from './tags.ts';
import { validationError } from '../shared/errors.ts';
import { linksOfChecks, resolveTag } from './store.ts';

export interface LinkDeps {
  monitoring: MonitoringDeps;
  campus: CampusDeps;
}

// The tags are written as API v3 writes them (the version matters only for a name's slug).
const API_VERSION = 3;

/** The most readable tag that names `record` and no other (Slate looks a Handle up before a Code). */
export async function tagFor(db: Db, kind: KindName, record: CampusRecord): Promise<string> {
  for (const ident of identCandidates(KINDS[kind], record)) {
    if ((await resolveTag(db, kind, ident))?.ID === record.ID) return recordTag(kind, ident);
  }
  return recordTag(kind, record.ID);
}

/** Departments and schedules have no link column (tags.ts LINKABLE_KINDS): asking to link one is bad input. */
export function requireLinkable(kind: KindName) {
  if (!LINKABLE_KINDS.has(kind)) throw validationError(`A check cannot be linked to a ${KINDS[kind].noun}`);
}

/** Links the check to the record by adding its tag; already linked, nothing changes. */
export async function linkCheckRecord(deps: LinkDeps, access: ProjectAccess, viewer: Viewer, code: string, kind: KindName, ident: string): Promise<CheckRecord> {
  requireLinkable(kind);
  writableProject(access);
  const check = await getCheck(deps.monitoring, access, code);
  const record = await getRecord(deps.campus, viewer, KINDS[kind], ident);
  const links = await linksOfChecks(deps.monitoring.db, [check.id]);
  if (links.some((l) => l.kind === kind && l.recordId === record.ID)) return check;
  const tag = await tagFor(deps.monitoring.db, kind, record);
  return updateCheck(deps.monitoring, access, code, { tags: withTag(check.tags, tag) }, API_VERSION);
}

/**
 * Unlinks the check from the record by removing every tag that links it, or would at the next
 * write (a tag written before the record existed); not linked, nothing changes.
 */
export async function unlinkCheckRecord(deps: LinkDeps, access: ProjectAccess, viewer: Viewer, code: string, kind: KindName, ident: string): Promise<CheckRecord> {
  requireLinkable(kind);
  writableProject(access);
  const check = await getCheck(deps.monitoring, access, code);
  const record = await getRecord(deps.campus, viewer, KINDS[kind], ident);
  const links = await linksOfChecks(deps.monitoring.db, [check.id]);
  const remove = new Set(links.filter((l) => l.kind === kind && l.recordId === record.ID).map((l) => l.tag));
  const resolved = new Set(links.map((l) => l.tag));
  for (const t of recordTagsOf(check.tags)) {
    if (t.kind === kind && !resolved.has(t.tag) && (await resolveTag(deps.monitoring.db, kind, t.ident))?.ID === record.ID) remove.add(t.tag);
  }
  if (!remove.size) return check;
  return updateCheck(deps.monitoring, access, code, { tags: withoutTags(check.tags, remove) }, API_VERSION);
}
