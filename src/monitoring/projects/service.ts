// Projects and their keys. Keys are created here (the CLI), never through the Management API,
// as in Healthchecks.
import { CLI_ACTOR, READ_ONLY_KEY_ACTOR, READ_WRITE_KEY_ACTOR, type Actor } from '../../identity/roles.ts';
import { recordAudit } from '../audit/service.ts';
import type { Db } from '../../db/client.ts';
import { DomainError, notFound, unauthenticated, validationError } from '../../shared/errors.ts';
import { holdsNul, NUL_REFUSED } from '../../shared/stored-text.ts';
import type { ProjectAccess } from '../context.ts';
import { projectBadgeColumns } from '../badges/keys.ts';
import {
  KEY_LENGTH,
  hashKey,
  newApiKey,
  newBadgeKey,
  newId,
  newPingKey,
  newReadonlyApiKey,
} from './keys.ts';
import { projectOfImportedKey } from './imported-keys.ts';

export interface CreatedProject {
  id: string;
  name: string;
  api_key: string;
  api_key_readonly: string;
  ping_key: string;
  badge_key: string;
}

function checkName(input: { name: string }): string {
  const name = input.name.trim();
  if (!name) throw validationError('name must not be empty');
  if (name.length > 100) throw validationError('name is too long');
  if (holdsNul(name)) throw validationError(NUL_REFUSED('name'));
  return name;
}

/**
 * A new project with every key (the CLI's `project create`); the keys are returned once, never
 * stored in clear, but for the badge key (public: badge URLs carry it).
 */
export async function createProject(db: Db, input: { name: string }): Promise<CreatedProject> {
  const name = checkName(input);
  const keys = {
    api_key: newApiKey(),
    api_key_readonly: newReadonlyApiKey(),
    ping_key: newPingKey(),
    badge_key: newBadgeKey(),
  };
  const project = await db.project.create({
    data: {
      id: newId(),
      name,
      apiKeyHash: hashKey(keys.api_key),
      apiKeyReadonlyHash: hashKey(keys.api_key_readonly),
      pingKeyHash: hashKey(keys.ping_key),
      // The badge key is kept in clear: badge URLs carry it (badges/keys.ts).
      ...projectBadgeColumns(keys.badge_key),
    },
  });
  return { id: project.id, name: project.name, ...keys };
}

/**
 * A new project without API keys or a ping key, as a person creates one in Healthchecks:
 * owners and managers create keys when a program needs one. The badge key always exists
 * (badge URLs are signed with it).
 */
export async function createProjectWithoutKeys(db: Db, input: { name: string }): Promise<{ id: string; name: string }> {
  const name = checkName(input);
  const project = await db.project.create({ data: { id: newId(), name, ...projectBadgeColumns() } });
  return { id: project.id, name: project.name };
}

export async function listProjects(db: Db) {
  const projects = await db.project.findMany({
    orderBy: { createdAt: 'asc' },
    include: { _count: { select: { checks: true, channels: true } } },
  });
  return projects.map((p) => ({
    id: p.id,
    name: p.name,
    checks: p._count.checks,
    channels: p._count.channels,
    ping_log_limit: p.pingLogLimit,
    has_api_key: p.apiKeyHash !== null,
    has_api_key_readonly: p.apiKeyReadonlyHash !== null,
  }));
}

export type KeyKind = 'api_key' | 'api_key_readonly' | 'ping_key' | 'badge_key';

const keyColumns = {
  api_key: { column: 'apiKeyHash', make: newApiKey },
  api_key_readonly: { column: 'apiKeyReadonlyHash', make: newReadonlyApiKey },
  ping_key: { column: 'pingKeyHash', make: newPingKey },
  badge_key: { column: 'badgeKeyHash', make: newBadgeKey },
} as const;

/** How a key reads in the audit log: its name, never the key (the entry is the key's kind). */
export const KEY_NAMES: Record<KeyKind, string> = {
  api_key: READ_WRITE_KEY_ACTOR.label,
  api_key_readonly: READ_ONLY_KEY_ACTOR.label,
  ping_key: 'Ping key',
  badge_key: 'Badge key',
};

const keyTarget = (kind: KeyKind) => ({ targetKind: 'key' as const, targetId: kind, targetName: KEY_NAMES[kind] });

/**
 * Replaces one key of a project; the old key stops working at once. Returns the new key. The
 * audit log records key.created by `actor` at `at` (the CLI at the system time by default).
 */
export async function rotateKey(db: Db, projectId: string, kind: KeyKind, actor: Actor = CLI_ACTOR, at: Date = new Date()): Promise<string> {
  const { column, make } = keyColumns[kind];
  const key = make();
  await db.$transaction(async (tx) => {
    // A new badge key revokes both badge URL forms: the key's (and its signing key) and the old hash's.
    const data = kind === 'badge_key' ? projectBadgeColumns(key) : { [column]: hashKey(key) };
    const result = await tx.project.updateMany({ where: { id: projectId }, data });
    if (result.count === 0) throw notFound(`project not found: ${projectId}`);
    await recordAudit(tx, actor, projectId, { action: 'key.created', ...keyTarget(kind) }, at);
  });
  return key;
}

/**
 * Removes a read-write or read-only API key (Healthchecks lets owners revoke keys). Revoking a
 * key the project no longer has changes nothing and records nothing.
 */
export async function revokeKey(db: Db, projectId: string, kind: 'api_key' | 'api_key_readonly' | 'ping_key', actor: Actor = CLI_ACTOR, at: Date = new Date()) {
  const column = keyColumns[kind].column;
  await db.$transaction(async (tx) => {
    const result = await tx.project.updateMany({ where: { id: projectId, NOT: { [column]: null } }, data: { [column]: null } });
    if (result.count === 0) {
      if (!(await tx.project.findUnique({ where: { id: projectId }, select: { id: true } }))) throw notFound(`project not found: ${projectId}`);
      return;
    }
    await recordAudit(tx, actor, projectId, { action: 'key.revoked', ...keyTarget(kind) }, at);
  });
}

export const PING_LOG_LIMIT_MIN = 1;
/** Healthchecks caps the listing at 1000 whatever the plan. */
export const PING_LOG_LIMIT_MAX = 1000;

/**
 * Sets how many pings the API lists per check. The audit log records the change (from, to)
 * by `actor` at `at` (the CLI at the system time by default); setting the same limit again
 * changes nothing and records nothing.
 */
export async function setPingLogLimit(db: Db, projectId: string, limit: number, actor: Actor = CLI_ACTOR, at: Date = new Date()) {
  if (!Number.isInteger(limit) || limit < PING_LOG_LIMIT_MIN || limit > PING_LOG_LIMIT_MAX) {
    throw validationError(`ping log limit must be an integer from ${PING_LOG_LIMIT_MIN} to ${PING_LOG_LIMIT_MAX}`);
  }
  await db.$transaction(async (tx) => {
    const before = await tx.project.findUnique({ where: { id: projectId }, select: { name: true, pingLogLimit: true } });
    if (!before) throw notFound(`project not found: ${projectId}`);
    if (before.pingLogLimit === limit) return;
    await tx.project.update({ where: { id: projectId }, data: { pingLogLimit: limit } });
    await recordAudit(tx, actor, projectId, { action: 'project.ping_log_limit_changed', targetKind: 'project', targetId: projectId, targetName: before.name, detail: { from: before.pingLogLimit, to: limit } }, at);
  });
}

export async function renameProject(db: Db, projectId: string, name: string, actor: Actor = CLI_ACTOR, at: Date = new Date()) {
  const checked = checkName({ name });
  await db.$transaction(async (tx) => {
    const result = await tx.project.updateMany({ where: { id: projectId }, data: { name: checked } });
    if (result.count === 0) throw notFound(`project not found: ${projectId}`);
    await recordAudit(tx, actor, projectId, { action: 'project.renamed', targetKind: 'project', targetId: projectId, targetName: checked }, at);
  });
}

export async function deleteProject(db: Db, projectId: string) {
  const result = await db.project.deleteMany({ where: { id: projectId } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
}

export async function requireProject(db: Db, projectId: string) {
  const project = await db.project.findUnique({ where: { id: projectId } });
  if (!project) throw notFound(`project not found: ${projectId}`);
  return project;
}

export type ApiKeyError = 'missing api key' | 'wrong api key';

/**
 * Healthchecks' key check: a key that is not 32 characters is "missing"; an unknown key, or a
 * read-only key where a read-write one is needed, is "wrong".
 */
export async function authenticate(
  db: Db,
  key: string | null | undefined,
  need: 'read' | 'write',
): Promise<ProjectAccess> {
  if (!key || key.length !== KEY_LENGTH) throw unauthenticated('missing api key');
  const hash = hashKey(key);
  const rw = await db.project.findUnique({ where: { apiKeyHash: hash }, select: { id: true } });
  if (rw) return { projectId: rw.id, readOnly: false, role: 'regular', actor: READ_WRITE_KEY_ACTOR };
  if (need === 'read') {
    const ro = await db.project.findUnique({ where: { apiKeyReadonlyHash: hash }, select: { id: true } });
    if (ro) return { projectId: ro.id, readOnly: true, role: 'readonly', actor: READ_ONLY_KEY_ACTOR };
  }
  // A key imported from a Healthchecks instance that stored it hashed (imported-keys.ts).
  const importedRw = await projectOfImportedKey(db, key, 'apiKeyHash');
  if (importedRw) return { projectId: importedRw, readOnly: false, role: 'regular', actor: READ_WRITE_KEY_ACTOR };
  if (need === 'read') {
    const importedRo = await projectOfImportedKey(db, key, 'apiKeyReadonlyHash');
    if (importedRo) return { projectId: importedRo, readOnly: true, role: 'readonly', actor: READ_ONLY_KEY_ACTOR };
  }
  throw unauthenticated('wrong api key');
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
