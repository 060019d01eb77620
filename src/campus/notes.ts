// Notes on a person (Slate's Emergence\CRM\Message, the Person `Notes` context children, served
// at /notes by a MessagesRequestHandler): Staff read and write them (every account level of that
// handler is Staff); a private draft is seen only by its author (Slate's NotesRequestHandler
// browse condition); lists are newest first by ID.
import { peopleChanged } from './people-changed.ts';
import { writeTransaction } from './transaction.ts';
import type { Note } from '../generated/prisma/client.ts';
import { notFound, RecordValidationError, validationError } from '../shared/errors.ts';
import { isStaff, requireLevel } from './access.ts';
import { KINDS, type KindSpec } from './kinds.ts';
import { BROWSE_MAX_LIMIT, COMMENT_MAX_CHARS, InvalidRequestError, MAX_INT, parseId, requireShortText, SEARCH_MAX_CHARS } from './limits.ts';
import { findRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { parseSearch } from './search-string.ts';
import { validateFields, type FieldErrors, type RecordInput } from './validate.ts';
import type { Viewer } from './viewer.ts';
import type { Relation } from './relation.ts';

export type { Note };
export const NOTE_CLASS = 'Emergence\\CRM\\Message';
export const NOTE_STATUSES = ['draft-private', 'draft-shared', 'sent', 'deleted'] as const;
export const NOTE_FORMATS = ['plain', 'html'] as const;
export const NOTE_SOURCES = ['system', 'direct', 'email', 'import'] as const;
/** Statuses every Staff member sees in a list; a private draft only its author, a deleted one nobody. */
const LISTED = ['draft-shared', 'sent'];

/** Message's own fields, validated as a record kind's are (validate.ts), with Slate's messages. */
const NOTE_SPEC = {
  fields: [
    { name: 'Subject', type: 'varchar', required: true, requiredMessage: 'A subject is required' },
    { name: 'Message', type: 'text', required: true, requiredMessage: 'A message is required' },
    { name: 'MessageFormat', type: 'enum', values: NOTE_FORMATS, default: 'html' },
    { name: 'Status', type: 'enum', values: NOTE_STATUSES, default: 'draft-private' },
    { name: 'ParentMessageID', type: 'int' },
    { name: 'Source', type: 'enum', values: NOTE_SOURCES, default: 'direct' },
  ],
} as unknown as KindSpec;

/** Whether `viewer` sees `note` at all: Staff, and a private draft only when they wrote it. */
export function noteVisible(viewer: Viewer, note: Pick<Note, 'Status' | 'AuthorID'>): boolean {
  return isStaff(viewer) && (note.Status !== 'draft-private' || (viewer.personId !== null && note.AuthorID === viewer.personId));
}

/** Whether `note` appears in `viewer`'s lists (Slate's browse condition: deleted notes never do). */
export const noteListed = (viewer: Viewer, note: Pick<Note, 'Status' | 'AuthorID'>) => noteVisible(viewer, note) && note.Status !== 'deleted';

const listedWhere = (viewer: Viewer) => ({ OR: [{ Status: { in: LISTED } }, { Status: 'draft-private', AuthorID: viewer.personId ?? -1 }] });

/** Notes of many people at once, newest first, each list as `viewer` may see it (no N+1). */
export async function notesOf(deps: CampusDeps, records: CampusRecord[]): Promise<Map<number, unknown>> {
  const rows = await deps.db.note.findMany({
    where: { ContextClass: KINDS.Person.className, ContextID: { in: records.map((r) => r.ID) }, Status: { not: 'deleted' } },
    orderBy: { ID: 'desc' },
  });
  const out = new Map<number, unknown[]>(records.map((r) => [r.ID, []]));
  for (const row of rows) out.get(row.ContextID)?.push(row);
  return out as Map<number, unknown>;
}

async function requirePerson(deps: CampusDeps, ident: string | number) {
  const person = await findRecord(deps, KINDS.Person, ident);
  if (!person) throw notFound('Record not found');
  return person;
}

export interface NoteBrowse {
  limit?: number;
  offset?: number;
  /** Slate's Message search: `person:<ID or username>`, `author:<username>`, `subject:`, `message:`, bare words. */
  q?: string;
}

/** Slate's search conditions for messages, as Prisma conditions (words must all match). */
async function searchWhere(deps: CampusDeps, q: string): Promise<Array<Record<string, unknown>>> {
  requireShortText('q', q, SEARCH_MAX_CHARS);
  const and: Array<Record<string, unknown>> = [];
  for (const { qualifier, term } of parseSearch(q)) {
    switch (qualifier) {
      case null:
      case 'any':
        and.push({ OR: [{ Subject: { contains: term } }, { Message: { contains: term } }] });
        break;
      case 'subject':
        and.push({ Subject: { contains: term } });
        break;
      case 'message':
        and.push({ Message: { contains: term } });
        break;
      case 'person':
      case 'personid': {
        const person = await findRecord(deps, KINDS.Person, term);
        and.push({ ContextClass: KINDS.Person.className, ContextID: person?.ID ?? -1 });
        break;
      }
      case 'author': {
        const author = await findRecord(deps, KINDS.Person, term);
        and.push({ AuthorID: author?.ID ?? -1 });
        break;
      }
      default:
        // Slate's throwError: answered as a failed request, not as an empty list.
        throw validationError(`Unknown search qualifier: ${qualifier}`);
    }
  }
  return and;
}

const pageNumber = (name: string, v: number | undefined) => {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_INT)) throw new InvalidRequestError(`${name} must be a whole number from 0 to ${MAX_INT}`);
  return v;
};

/** Slate's GET /notes: every note the viewer may list, newest first. */
export async function browseNotes(deps: CampusDeps, viewer: Viewer, options: NoteBrowse = {}) {
  requireLevel(viewer, 'Staff');
  const limit = pageNumber('limit', options.limit);
  const offset = pageNumber('offset', options.offset);
  const where = { ...listedWhere(viewer), AND: options.q ? await searchWhere(deps, options.q) : [] };
  const take = Math.min(limit || BROWSE_MAX_LIMIT, BROWSE_MAX_LIMIT);
  const [records, total] = await Promise.all([
    deps.db.note.findMany({ where, orderBy: { ID: 'desc' }, take, skip: limit ? offset || undefined : undefined }),
    deps.db.note.count({ where }),
  ]);
  return { records, total, limit: limit ? take : total > BROWSE_MAX_LIMIT ? BROWSE_MAX_LIMIT : null };
}

/** A person's notes (the `Notes` relationship), newest first. */
export async function personNotes(deps: CampusDeps, viewer: Viewer, personIdent: string | number) {
  requireLevel(viewer, 'Staff');
  const person = await requirePerson(deps, personIdent);
  const rows = await deps.db.note.findMany({ where: { ContextClass: KINDS.Person.className, ContextID: person.ID, ...listedWhere(viewer) }, orderBy: { ID: 'desc' } });
  return { person, notes: rows };
}

/** One note by ID; another's private draft is not found (its existence is not told). */
export async function getNote(deps: CampusDeps, viewer: Viewer, ident: string | number) {
  requireLevel(viewer, 'Staff');
  const id = parseId(ident);
  const note = id === null ? null : await deps.db.note.findUnique({ where: { ID: id } });
  if (!note || !noteVisible(viewer, note)) throw notFound('Record not found');
  return note;
}

/** Validates a note's fields (all of them on create); errors come back as Slate's validationErrors. */
async function prepare(deps: CampusDeps, input: RecordInput, existing: Note | null) {
  const { data, errors } = validateFields(NOTE_SPEC, input, existing as RecordInput | null);
  const message = data.Message;
  if (typeof message === 'string' && message.length > COMMENT_MAX_CHARS) errors.Message = 'Message is too long.';
  if (typeof data.ParentMessageID === 'number' && !errors.ParentMessageID) {
    const parent = await deps.db.note.findUnique({ where: { ID: data.ParentMessageID }, select: { ID: true } });
    if (!parent) errors.ParentMessageID = `Parent Message ${data.ParentMessageID} does not exist.`;
  }
  return { data, errors };
}

function refuse(errors: FieldErrors, input: RecordInput) {
  const echo: RecordInput = {};
  for (const key of ['ContextClass', 'ContextID', ...NOTE_SPEC.fields.map((f) => f.name)]) if (Object.hasOwn(input, key)) echo[key] = input[key];
  throw new RecordValidationError(errors, echo);
}

/** Message::save: a note that becomes `sent` is dated then, once. */
const sentAt = (deps: CampusDeps, status: unknown, existing: Note | null) => (status === 'sent' && !existing?.Sent ? { Sent: deps.clock.now() } : {});

/**
 * Creates a note on a person, written by the viewer. The person is `personIdent` (the nested
 * route) or the input's ContextID (ContextClass, when given, must name a person: Slate's enum).
 */
export async function createNote(deps: CampusDeps, viewer: Viewer, input: RecordInput, personIdent?: string | number) {
  requireLevel(viewer, 'Staff');
  const { data, errors } = await prepare(deps, input, null);
  let person: CampusRecord | null = null;
  if (personIdent !== undefined) {
    person = await requirePerson(deps, personIdent);
  } else {
    const cls = input.ContextClass;
    const classOk = cls === undefined || cls === null || cls === '' || cls === KINDS.Person.className || cls === 'Person';
    const id = parseId(typeof input.ContextID === 'string' ? input.ContextID.trim() : input.ContextID);
    person = classOk && id !== null ? await findRecord(deps, KINDS.Person, id) : null;
    if (!person) errors.Context = 'A note must be in the context of a person';
  }
  if (Object.keys(errors).length) refuse(errors, input);
  const now = deps.clock.now();
  return writeTransaction(deps, async (tx) => {
    const note = await tx.db.note.create({
      data: {
        Class: NOTE_CLASS,
        Created: now,
        CreatorID: viewer.personId,
        ContextClass: KINDS.Person.className,
        ContextID: person!.ID,
        AuthorID: viewer.personId,
        ...(data as { Subject: string; Message: string }),
        ...sentAt(deps, data.Status ?? 'draft-private', null),
      },
    });
    await peopleChanged(tx, [note.ContextID]);
    return note;
  });
}

/** Edits a note's own fields; its person and author stay (Slate sets the author only when there is none). */
export async function editNote(deps: CampusDeps, viewer: Viewer, ident: string | number, input: RecordInput) {
  const existing = await getNote(deps, viewer, ident);
  const { data, errors } = await prepare(deps, input, existing);
  if (data.ParentMessageID === existing.ID) errors.ParentMessageID = 'A note cannot be its own parent.';
  if (Object.keys(errors).length) refuse(errors, input);
  return writeTransaction(deps, async (tx) => {
    const note = await tx.db.note.update({
      where: { ID: existing.ID },
      data: { ...data, Modified: deps.clock.now(), ModifierID: viewer.personId, ...(existing.AuthorID === null ? { AuthorID: viewer.personId } : {}), ...sentAt(deps, data.Status, existing) },
    });
    await peopleChanged(tx, [note.ContextID]);
    return note;
  });
}

/** Deletes a note and returns it as it was; replies to it keep their (now dangling) parent ID, as in Slate. */
export async function deleteNote(deps: CampusDeps, viewer: Viewer, ident: string | number) {
  const note = await getNote(deps, viewer, ident);
  await writeTransaction(deps, async (tx) => {
    await tx.db.note.delete({ where: { ID: note.ID } });
    await peopleChanged(tx, [note.ContextID]);
  });
  return note;
}

/** Notes are context children: they go with the records they hang on (service.ts deleteRecord). */
export async function deleteContextNotes(deps: CampusDeps, kind: KindSpec, ids: number[]) {
  await deps.db.note.deleteMany({ where: { ContextClass: kind.className, ContextID: { in: ids } } });
}

/** A person's `Notes` for ?include= and GraphQL: Staff only, not even the person; each note as listed. */
export const NOTES_RELATION: Relation = {
  kind: 'Note',
  many: true,
  readLevel: 'Staff',
  notSelf: true,
  visibleTo: (viewer, row) => noteListed(viewer, row as Note),
  load: notesOf,
};
