// Slate's access rules: levels are ordinal; anonymous callers are asked to log in (401),
// logged-in callers below the level are refused (403).
import { DomainError, forbidden, unauthenticated } from '../shared/errors.ts';
import type { Viewer } from './viewer.ts';
import { hasLevel, type AccountLevel, type KindSpec } from './kinds.ts';

export const ACCESS_DENIED = 'You do not have authorization to access this resource';
export const LOGIN_REQUIRED = 'Login required';

export function requireLevel(viewer: Viewer, level: AccountLevel | null): void {
  if (level === null) return;
  if (!viewer.level) throw unauthenticated(LOGIN_REQUIRED);
  if (!hasLevel(viewer.level, level)) throw forbidden(ACCESS_DENIED);
}

export const isStaff = (viewer: Viewer) => hasLevel(viewer.level, 'Staff');

/** Content a viewer may see without write rights: Live, published, and Public unless logged in. */
export function publicFilter(kind: KindSpec, viewer: Viewer, now: Date): Record<string, unknown> {
  if (isStaff(viewer)) return {};
  const where: Record<string, unknown> = {};
  if (kind.fields.some((f) => f.name === 'Status')) where.Status = 'Live';
  if (kind.model === 'content') {
    where.OR = [{ Published: null }, { Published: { lte: now } }];
    if (!viewer.level) where.Visibility = 'Public';
  }
  return where;
}

/** Reading one record that is not public: its author or Staff may; others are refused. */
export function requireReadable(kind: KindSpec, viewer: Viewer, record: Record<string, unknown>, now: Date): void {
  requireLevel(viewer, kind.access.read);
  if (isStaff(viewer)) return;
  if (kind.model === 'content' && record.AuthorID !== null && record.AuthorID === viewer.personId) return;
  const hidden =
    ('Status' in record && record.Status !== 'Live') ||
    (kind.model === 'content' && ((record.Published instanceof Date && record.Published > now) || (record.Visibility === 'Private' && !viewer.level)));
  if (hidden) {
    if (!viewer.level) throw unauthenticated(LOGIN_REQUIRED);
    throw forbidden(ACCESS_DENIED);
  }
}

/** Whether `viewer` may read `record`: requireReadable's rule, as a yes or no (related records are left out, not refused). */
export function canRead(kind: KindSpec, viewer: Viewer, record: Record<string, unknown>, now: Date): boolean {
  try {
    requireReadable(kind, viewer, record, now);
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}

/** Editing or deleting: the write level, or (blog posts) being the author at the create level. */
export function requireWritable(kind: KindSpec, viewer: Viewer, record: Record<string, unknown> | null): void {
  if (record && kind.access.create && record.AuthorID === viewer.personId && viewer.personId !== null) {
    return requireLevel(viewer, kind.access.create);
  }
  requireLevel(viewer, record ? kind.access.write : (kind.access.create ?? kind.access.write));
}

export { DomainError };
