// The /save and /destroy bodies of /contact-points and /relationships, read and answered as
// the record routes answer theirs (routes.ts): `{"data": [...]}`, per-item failures.
import { MAX_LIST_ITEMS } from '../../src/campus/limits.ts';
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
