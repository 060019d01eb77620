// The /save and /destroy of /contact-points and /relationships, read and answered as
// the record routes answer theirs (routes.ts): `{"data": [...]}`, per-item failures.
import type { Viewer } from '../../src/campus/auth.ts';
import { requireLevel } from '../../src/campus/access.ts';
import { MAX_LIST_ITEMS } from '../../src/campus/limits.ts';
import type { CampusDeps } from '../../src/campus/lookup.ts';
import { batchItem, writeTransaction } from '../../src/campus/transaction.ts';
import { HttpError } from '../../src/http/body.ts';
import { DomainError, RecordValidationError } from '../../src/shared/errors.ts';

/** `data` as a list of at most MAX_LIST_ITEMS items (Slate's 400 otherwise). */
export function batchBody(fields: Record<string, unknown>, message: string): unknown[] {
  if (!Array.isArray(fields.data)) throw new HttpError(400, message);
  if (fields.data.length > MAX_LIST_ITEMS) throw new HttpError(400, `Too many items in "data": at most ${MAX_LIST_ITEMS}`);
  return fields.data;
}

/** As in PHP: an object's ID, or the item itself. */
export const idOf = (item: unknown) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { ID?: unknown }).ID : item);
export const named = (id: unknown): id is string | number => (typeof id === 'string' || typeof id === 'number') && id !== '';

/** A failed item's entry; a fault that is not a domain error ends the request (a 5xx, all undone). */
export function batchFailure(item: unknown, err: unknown): Record<string, unknown> {
  if (err instanceof RecordValidationError) return { record: item, validationErrors: err.fields };
  if (!(err instanceof DomainError)) throw err;
  if (err.code === 'FORBIDDEN' || err.code === 'UNAUTHENTICATED') return { record: item, errors: 'Write access denied' };
  return { record: item, errors: err.code === 'NOT_FOUND' ? 'ID not found' : err.message };
}

/** How one kind's items are written, for saveBatch and destroyBatch. */
export interface BatchWrites<R> {
  create(tx: CampusDeps, viewer: Viewer, fields: Record<string, unknown>): Promise<R>;
  edit(tx: CampusDeps, viewer: Viewer, id: string, fields: Record<string, unknown>): Promise<R>;
  remove(tx: CampusDeps, viewer: Viewer, id: string): Promise<R>;
  json(record: R): unknown;
}

/**
 * Slate's /save for Staff (accountLevelAPI: refused before any item): each item created, or
 * edited when it names an ID, in one transaction with a savepoint each, so a refused item leaves
 * the others.
 */
export async function saveBatch<R>(deps: CampusDeps, viewer: Viewer, fields: Record<string, unknown>, writes: BatchWrites<R>) {
  requireLevel(viewer, 'Staff');
  const items = batchBody(fields, 'Save expects "data" field as array of record deltas');
  const saved: unknown[] = [];
  const failed: Array<Record<string, unknown>> = [];
  await writeTransaction(deps, async (tx) => {
    for (const item of items) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        failed.push({ record: item, errors: 'Record delta must be an object' });
        continue;
      }
      const f = item as Record<string, unknown>;
      try {
        const id = idOf(f);
        saved.push(writes.json(await batchItem(tx, () => (named(id) ? writes.edit(tx, viewer, String(id), f) : writes.create(tx, viewer, f)))));
      } catch (err) {
        failed.push(batchFailure(item, err));
      }
    }
  });
  const first = failed[0] as { errors?: string; validationErrors?: Record<string, string> } | undefined;
  return { success: saved.length > 0 || failed.length === 0, data: saved, failed, message: first ? (first.errors ?? Object.values(first.validationErrors ?? {})[0] ?? null) : null };
}

/** Slate's /destroy for Staff: each item named by ID deleted, in one transaction with a savepoint each. */
export async function destroyBatch<R>(deps: CampusDeps, viewer: Viewer, fields: Record<string, unknown>, writes: Pick<BatchWrites<R>, 'remove' | 'json'>) {
  requireLevel(viewer, 'Staff');
  const items = batchBody(fields, 'Handler expects "data" field as array');
  const deleted: unknown[] = [];
  const failed: unknown[] = [];
  await writeTransaction(deps, async (tx) => {
    for (const item of items) {
      const id = idOf(item);
      if (!named(id)) {
        failed.push({ record: item, errors: 'ID missing' });
        continue;
      }
      try {
        deleted.push(writes.json(await batchItem(tx, () => writes.remove(tx, viewer, String(id)))));
      } catch (err) {
        failed.push(batchFailure(item, err));
      }
    }
  });
  return { success: failed.length === 0, data: deleted, failed };
}
