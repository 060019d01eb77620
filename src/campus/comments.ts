// Comments on any record (Slate's context children): `POST /<prefix>/<h>/comment` with a
// `Message`, by any logged-in user who can read the record.
import { randomBytes } from 'node:crypto';
import { RecordValidationError } from '../shared/errors.ts';
import { requireLevel } from './access.ts';
import type { Viewer } from './auth.ts';
import type { KindSpec } from './kinds.ts';
import { getRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { COMMENT_MAX_CHARS } from './limits.ts';
import { holdsNul } from '../shared/stored-text.ts';

export async function addComment(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number, message: unknown) {
  requireLevel(viewer, 'User');
  const record = await getRecord(deps, viewer, kind, ident);
  const text = typeof message === 'string' ? message.trim() : '';
  if (!text) throw new RecordValidationError({ Message: 'You must provide a message.' }, { Message: message });
  // NUL cannot be stored in a PostgreSQL text column (records refuse it the same way).
  if (holdsNul(text)) throw new RecordValidationError({ Message: 'Message is invalid.' }, { Message: message });
  // Slate's Message is a TEXT column; the echo is left out, a reply is never larger than this.
  if (text.length > COMMENT_MAX_CHARS) throw new RecordValidationError({ Message: 'Message is too long.' }, {});
  return deps.db.comment.create({
    data: { ContextClass: kind.className, ContextID: record.ID, Handle: randomBytes(9).toString('base64url').slice(0, 12), Message: text, CreatorID: viewer.personId, Created: deps.clock.now() },
  });
}

/** Comments of many records at once, newest first. */
export async function commentsOf(deps: CampusDeps, kind: KindSpec, records: CampusRecord[]) {
  const rows = await deps.db.comment.findMany({ where: { ContextClass: kind.className, ContextID: { in: records.map((r) => r.ID) } }, orderBy: { ID: 'desc' } });
  const out = new Map<number, unknown[]>(records.map((r) => [r.ID, []]));
  for (const row of rows) out.get(row.ContextID)?.push(row);
  return out as Map<number, unknown>;
}
