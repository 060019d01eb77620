// Projects and their keys. Keys are created here (the CLI), never through the Management API,
// as in Healthchecks.
import type { Db } from '../../db/client.ts';
import { DomainError, notFound, unauthenticated, validationError } from '../../shared/errors.ts';
import type { ProjectAccess } from '../context.ts';
import {
  KEY_LENGTH,
  hashKey,
  newApiKey,
  newBadgeKey,
  newId,
  newPingKey,
  newReadonlyApiKey,
} from './keys.ts';

export interface CreatedProject {
  id: string;
  name: string;
  api_key: string;
  api_key_readonly: string;
  ping_key: string;
  badge_key: string;
}

export async function createProject(db: Db, input: { name: string }): Promise<CreatedProject> {
  const name = input.name.trim();
  if (!name) throw validationError('name must not be empty');
  if (name.length > 100) throw validationError('name is too long');
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
      badgeKeyHash: hashKey(keys.badge_key),
    },
  });
  return { id: project.id, name: project.name, ...keys };
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

/** Replaces one key of a project; the old key stops working at once. Returns the new key. */
export async function rotateKey(db: Db, projectId: string, kind: KeyKind): Promise<string> {
  const { column, make } = keyColumns[kind];
  const key = make();
  const result = await db.project.updateMany({ where: { id: projectId }, data: { [column]: hashKey(key) } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
  return key;
}

/** Removes a read-write or read-only API key (Healthchecks lets owners revoke keys). */
export async function revokeKey(db: Db, projectId: string, kind: 'api_key' | 'api_key_readonly') {
  const result = await db.project.updateMany({ where: { id: projectId }, data: { [keyColumns[kind].column]: null } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
}

export async function setPingLogLimit(db: Db, projectId: string, limit: number) {
  // Healthchecks caps the listing at 1000 whatever the plan.
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw validationError('ping log limit must be an integer from 1 to 1000');
  }
  const result = await db.project.updateMany({ where: { id: projectId }, data: { pingLogLimit: limit } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
}

export async function renameProject(db: Db, projectId: string, name: string) {
  if (!name.trim()) throw validationError('name must not be empty');
  const result = await db.project.updateMany({ where: { id: projectId }, data: { name: name.trim() } });
  if (result.count === 0) throw notFound(`project not found: ${projectId}`);
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
  if (rw) return { projectId: rw.id, readOnly: false };
  if (need === 'read') {
    const ro = await db.project.findUnique({ where: { apiKeyReadonlyHash: hash }, select: { id: true } });
    if (ro) return { projectId: ro.id, readOnly: true };
  }
  throw unauthenticated('wrong api key');
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
