// The audit log of a project: who changed what, and when. An entry is written by the domain
// function that makes the change, on the same client as the change: inside its transaction, a
// rolled-back change leaves no entry and a committed one always has its entry.
import type { AuditEntry, Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { mayManage, type Actor } from '../../identity/roles.ts';
import { forbidden, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import { isAuditAction, type AuditAction, type AuditTargetKind } from './actions.ts';

export { AUDIT_ACTIONS, AUDIT_TARGET_KINDS, isAuditAction, type AuditAction, type AuditTargetKind } from './actions.ts';

export interface AuditInput {
  action: AuditAction;
  targetKind: AuditTargetKind;
  /** A check's or channel's UUID, a key's kind (api_key…), a person's id. */
  targetId: string;
  /** The target's name at the time (a check renamed later keeps its old name here). */
  targetName?: string;
  /** Small facts about the change (the names of the fields an update changed), never values or secrets. */
  detail?: Record<string, unknown>;
}

/** The database client or an interactive transaction's client: both have `auditEntry`. */
export type AuditWriter = Pick<Prisma.TransactionClient, 'auditEntry'>;

/** Longest stored label or target name; names are 100 characters, so this only guards. */
const MAX_NAME = 200;
/** Longest stored detail (JSON). Details are a few field names; a larger one is a bug, not data. */
export const MAX_DETAIL_CHARS = 2000;
/** Keys a detail never stores, whoever passes them: the log is read by managers, not key holders. */
const SECRET_KEY = /secret|password|token|hash|api_?key|^key$|^value$/i;

const clip = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s);

function storedDetail(detail: Record<string, unknown> | undefined): string | null {
  if (!detail) return null;
  const kept = Object.fromEntries(Object.entries(detail).filter(([k, v]) => v !== undefined && !SECRET_KEY.test(k)));
  if (!Object.keys(kept).length) return null;
  const json = JSON.stringify(kept);
  return json.length > MAX_DETAIL_CHARS ? JSON.stringify({ truncated: true }) : json;
}

/** Writes one entry with `client`: pass the change's transaction client when it has one. */
export async function recordAudit(client: AuditWriter, actor: Actor, projectId: string, entry: AuditInput, at: Date): Promise<void> {
  // The type rules out other actions; this guards callers that build the name at run time.
  if (!isAuditAction(entry.action)) throw new Error(`unknown audit action: ${entry.action}`);
  await client.auditEntry.create({
    data: {
      projectId,
      at,
      actorPersonId: actor.personId,
      actorLabel: clip(actor.label),
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      targetName: clip(entry.targetName ?? ''),
      detail: storedDetail(entry.detail),
    },
  });
}

/** Largest page of entries one call returns. */
export const AUDIT_PAGE_MAX = 200;

export interface AuditRecord extends Omit<AuditEntry, 'detail' | 'projectId'> {
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditRecord[];
  hasNextPage: boolean;
  /** The id to pass as `after` for the next page; null when there is none. */
  endCursor: number | null;
}

export interface AuditPageRequest {
  /** 0 to AUDIT_PAGE_MAX. */
  first: number;
  /** The id of the last entry of the previous page: this page holds older entries. */
  after?: number | null;
}

/** One page of a project's entries, newest first (ids grow with time: the cursor is an id). */
export async function listAudit(db: Db, projectId: string, page: AuditPageRequest): Promise<AuditPage> {
  const { first, after } = page;
  if (!Number.isInteger(first) || first < 0 || first > AUDIT_PAGE_MAX) throw validationError(`first must be between 0 and ${AUDIT_PAGE_MAX}`);
  if (after !== undefined && after !== null && !Number.isSafeInteger(after)) throw validationError('unknown cursor');
  const rows = await db.auditEntry.findMany({
    where: { projectId, ...(after !== undefined && after !== null ? { id: { lt: after } } : {}) },
    orderBy: { id: 'desc' },
    take: first + 1,
  });
  const entries = rows.slice(0, first).map(({ projectId: _, detail, ...row }) => ({ ...row, detail: parsed(detail) }));
  const hasNextPage = rows.length > first;
  return { entries, hasNextPage, endCursor: hasNextPage ? (entries.at(-1)?.id ?? null) : null };
}

function parsed(detail: string | null): Record<string, unknown> | null {
  if (detail === null) return null;
  try {
    return JSON.parse(detail) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The caller's project's log: owners and managers only (Healthchecks' team admins). */
export async function listAuditFor(deps: Pick<MonitoringDeps, 'db'>, access: ProjectAccess, page: AuditPageRequest): Promise<AuditPage> {
  if (!mayManage(access.role)) throw forbidden('only owners and managers read the audit log');
  return listAudit(deps.db, access.projectId, page);
}
