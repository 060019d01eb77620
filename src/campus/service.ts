// One generic records service for every campus kind (Slate's RecordsRequestHandler idea):
// browse, read, create, edit, delete, batch save and destroy. Both transports call these.
import { selfAndWards } from './contact-access.ts';
import { conflict, DomainError, notFound, RecordValidationError, validationError } from '../shared/errors.ts';
import { isStaff, publicFilter, requireLevel, requireReadable, requireWritable } from './access.ts';
import { hashPassword, type Viewer } from './auth.ts';
import { handleError, handleFromText, handlesUnder, uniqueHandle } from './handle.ts';
import { ACCOUNT_LEVELS, hasLevel, KIND_LIST, KINDS, type KindSpec } from './kinds.ts';
import { spacify, validateFields, type FieldErrors, type RecordInput } from './validate.ts';
import { applyWriteOnly, checkWriteOnly, WRITE_ONLY } from './write-only.ts';
import { BROWSE_MAX_LIMIT, FILTER_MAX_CHARS, InvalidRequestError, MAX_INT, parseId, requireShortText } from './limits.ts';
import { delegate, findRecord, getRecord, kindScope, requireRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { resolveFilters, type BrowseFilters } from './filters.ts';
import { searchWhere } from './qualifiers.ts';
import { preorderRank, subtreeIds } from './tree.ts';
import { batchItem, commitEvent, writeTransaction } from './transaction.ts';
import { deleteNotesAndMappings } from './mappings.ts';
import { deleteContextMedia } from './media/service.ts';

export { delegate, findRecord, getRecord, kindScope, type CampusDeps, type CampusRecord, type BrowseFilters };

/** Published once the write's transaction commits (never for a write that was rolled back). */
function announce(deps: CampusDeps, kind: KindSpec, action: 'created' | 'updated' | 'deleted', record: CampusRecord) {
  commitEvent(deps, 'recordChanged', { kind: kind.name, action, record });
}

/**
 * Slate's people handler: a Disabled person's profile (and every route under it) is not found,
 * whoever asks. `/save` by ID, and GraphQL, still reach the person.
 */
export async function requireActiveProfile(deps: CampusDeps, ident: string | number): Promise<void> {
  const person = await findRecord(deps, KINDS.Person, ident);
  if (person?.AccountLevel === 'Disabled') throw notFound('profile not found');
}

export interface BrowseOptions {
  /** Page size; none (or 0) is Slate's "no limit", still at most BROWSE_MAX_LIMIT records. */
  limit?: number;
  /** Records to skip; as in Slate, only with a limit. */
  offset?: number;
  sort?: string;
  dir?: 'ASC' | 'DESC';
  /** Slate's search string: terms, `qualifier:term`, quotes, `mode:or`. */
  q?: string;
  /** Extra equality filters (GraphQL: parent, course, term, ...). */
  where?: Record<string, unknown>;
  /** Slate's browse filters (sections by term, course, location, enrolled user; ...). */
  filters?: BrowseFilters;
}

export interface BrowseResult {
  records: CampusRecord[];
  total: number;
  /** The page size applied, or null when every match fits (Slate's `limit: false`). */
  limit: number | null;
  /** Slate's echo of the keyed conditions the filters added. */
  conditions: Record<string, unknown>;
  /** The records the filters named (Term, Course, Location, EnrolledUser). */
  objects: Record<string, CampusRecord>;
}

/** Each text filter by the parameter name Slate's browse reads it from. */
const FILTER_PARAMS: Record<Exclude<keyof BrowseFilters, 'topLevel' | 'activePeopleOnly'>, string> = {
  term: 'term',
  course: 'course',
  location: 'location',
  schedule: 'schedule',
  department: 'department',
  enrolledUser: 'enrolled_user',
  author: 'AuthorID',
  parentGroup: 'parentGroup',
  query: 'query',
};

/** Filter values past FILTER_MAX_CHARS are refused before any of them reaches a query (a LIKE pattern above all). */
function checkFilters(filters: BrowseFilters | undefined) {
  for (const [key, param] of Object.entries(FILTER_PARAMS)) requireShortText(param, filters?.[key as keyof typeof FILTER_PARAMS], FILTER_MAX_CHARS);
}

const pageNumber = (name: string, v: number | undefined) => {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_INT)) throw new InvalidRequestError(`${name} must be a whole number from 0 to ${MAX_INT}`);
  return v;
};

export async function browseRecords(deps: CampusDeps, viewer: Viewer, kind: KindSpec, options: BrowseOptions = {}): Promise<BrowseResult> {
  requireLevel(viewer, kind.access.browse);
  const limit = pageNumber('limit', options.limit);
  const offset = pageNumber('offset', options.offset);
  const sortable = new Set(['ID', 'Created', 'Modified', ...kind.fields.map((f) => f.name)]);
  if (options.sort && !sortable.has(options.sort)) throw validationError('Invalid sort field');
  checkFilters(options.filters);
  const filters = await resolveFilters(deps, viewer, kind, options.filters);
  const and = [...filters.where];
  // The index answers the search; visibility, filters and paging then apply as to any browse.
  if (options.q) and.push(await searchWhere(deps, kind, options.q));
  const where: Record<string, unknown> = { ...kindScope(kind), ...publicFilter(kind, viewer, deps.clock.now()), ...options.where, AND: and };
  // Below Staff, people see only themselves and their wards (Slate's PeopleRequestHandler).
  if (kind.name === 'Person' && !isStaff(viewer)) where.ID = { in: await selfAndWards(deps, viewer) };
  const take = Math.min(limit || BROWSE_MAX_LIMIT, BROWSE_MAX_LIMIT);
  const skip = limit ? offset || 0 : 0;
  const d = delegate(deps.db, kind);
  let records: CampusRecord[];
  let total: number;
  if (!options.sort && kind.tree) {
    // Slate lists trees in nested-set order (Left): a pre-order walk of the matches.
    const [matches, rank] = await Promise.all([d.findMany({ where, select: { ID: true } }), preorderRank(deps, kind)]);
    const ids = matches.map((m) => m.ID).sort((a, b) => (rank.get(a) ?? MAX_INT) - (rank.get(b) ?? MAX_INT) || a - b);
    total = ids.length;
    const page = ids.slice(skip, skip + take);
    const rows = new Map((await d.findMany({ where: { ID: { in: page } } })).map((r) => [r.ID, r]));
    records = page.map((id) => rows.get(id)).filter((r): r is CampusRecord => !!r);
  } else {
    const orderBy = options.sort ? [{ [options.sort]: options.dir === 'DESC' ? 'desc' : 'asc' }, { ID: 'asc' }] : kind.order;
    [records, total] = await Promise.all([d.findMany({ where, orderBy, take, skip: skip || undefined }), d.count({ where })]);
  }
  const applied = limit ? take : total > BROWSE_MAX_LIMIT ? BROWSE_MAX_LIMIT : null;
  return { records, total, limit: applied, conditions: filters.conditions, objects: filters.objects };
}

/** Slate's GET /create: the write check, then the empty record a form starts from (defaults filled). */
export function recordTemplate(viewer: Viewer, kind: KindSpec): Record<string, unknown> {
  requireWritable(kind, viewer, null);
  const out: Record<string, unknown> = { ID: null, Class: kind.className, Created: null, CreatorID: null };
  for (const field of kind.fields) out[field.name] = field.default ?? null;
  return out;
}

/** Slate's GET /<h>/edit: the record as the edit form shows it, for those who may edit it. */
export async function editableRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number) {
  const record = await requireRecord(deps, kind, ident);
  requireWritable(kind, viewer, record);
  return record;
}

async function checkReferences(deps: CampusDeps, kind: KindSpec, data: RecordInput, errors: FieldErrors, selfId: number | null) {
  for (const field of kind.fields) {
    const value = data[field.name];
    if (!field.ref || value === null || value === undefined || errors[field.name]) continue;
    const target = KINDS[field.ref];
    const found = await delegate(deps.db, target).findFirst({ where: { ID: value, ...kindScope(target) }, select: target.tree ? { ID: true, ParentID: true } : { ID: true } });
    if (!found) {
      errors[field.errorKey ?? field.name] = `${spacify(field.ref)} ${value} does not exist.`;
    } else if (field.name === 'ParentID' && selfId !== null) {
      // A record cannot become its own ancestor.
      for (let cursor: CampusRecord | null = found; cursor; ) {
        if (cursor.ID === selfId) {
          errors[field.name] = `${spacify(kind.name)} cannot be its own parent.`;
          break;
        }
        const parentId: unknown = cursor.ParentID;
        cursor = parentId ? await delegate(deps.db, kind).findFirst({ where: { ID: parentId }, select: { ID: true, ParentID: true } }) : null;
      }
    }
  }
  // Blog posts and pages may name a context record of any kind (ContextClass + ContextID).
  if (kind.model === 'content' && !errors.ContextClass && !errors.ContextID && (data.ContextClass != null || data.ContextID != null)) {
    const target = KIND_LIST.find((k) => k.className === data.ContextClass);
    if (!target || data.ContextID == null) {
      errors.ContextClass = 'Context must name a record class and ID.';
    } else if (!(await delegate(deps.db, target).findFirst({ where: { ID: data.ContextID, ...kindScope(target) } }))) {
      errors.ContextID = `${spacify(target.name)} ${data.ContextID} does not exist.`;
    }
  }
}

async function assignHandle(deps: CampusDeps, kind: KindSpec, data: RecordInput, existing: CampusRecord | null, errors: FieldErrors) {
  if (!kind.handleFrom) return;
  // A null Handle is one not given: a new record gets one from its title, an existing record
  // keeps its own (it is in URLs; the column cannot be empty).
  if (data.Handle === null) delete data.Handle;
  const taken = async (handle: string) =>
    !!(await delegate(deps.db, kind).findFirst({ where: { Handle: handle, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } }));
  if (typeof data.Handle === 'string') {
    const error = handleError(data.Handle);
    if (error) errors.Handle = error;
    else if (await taken(data.Handle)) errors.Handle = 'Handle already registered';
    return;
  }
  if (existing) return;
  const source = String(data[kind.handleFrom] ?? data.Code ?? '');
  const text = kind.handleStyle === 'compact' ? handleFromText(source.replace(/\s+/g, ''), { keepCase: true }) : handleFromText(source);
  const takenUnder = async (base: string) =>
    (await delegate(deps.db, kind).findMany({ where: handlesUnder(base), select: { Handle: true } })).map((r) => String(r.Handle));
  data.Handle = await uniqueHandle(text || kind.noun.replace(/\s+/g, '_'), takenUnder);
}

/** Section codes: the course code upper-cased with an always-present 3-digit suffix (MATH-001). */
async function assignSectionCode(deps: CampusDeps, data: RecordInput, existing: CampusRecord | null, errors: FieldErrors) {
  const taken = async (code: string) => !!(await deps.db.section.findFirst({ where: { Code: code, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } }));
  if (typeof data.Code === 'string') {
    if (await taken(data.Code)) errors.Code = 'Code already registered';
    return;
  }
  // A blank Code (validateFields made it null) is one not given, as a blank Handle is: an existing
  // section keeps its own. The column holds no null; writing one was a 500 (campus-relations fuzz).
  if (existing) return void delete data.Code;
  if (typeof data.CourseID !== 'number' || errors.CourseID) return;
  const course = await deps.db.course.findUnique({ where: { ID: data.CourseID }, select: { Code: true } });
  const base = (course?.Code ?? 'SECTION').toUpperCase().replace(/\s+/g, '_');
  for (let n = 1; ; n++) {
    const code = `${base}-${String(n).padStart(3, '0')}`;
    if (!(await taken(code))) return void (data.Code = code);
  }
}

const acceptablePassword = (p: unknown): p is string => typeof p === 'string' && p.length >= 8;

/**
 * A person's new password, hashed before the write's transaction opens: scrypt takes tens of
 * milliseconds, and on SQLite an open transaction holds the one connection meanwhile. Only for
 * callers who may write people at all, so a refused request (a batch of them) costs no hashing.
 */
async function newPasswordHash(kind: KindSpec, viewer: Viewer, input: RecordInput): Promise<string | undefined> {
  if (kind.name !== 'Person' || !acceptablePassword(input.Password)) return undefined;
  if (!hasLevel(viewer.level, kind.access.create ?? kind.access.write)) return undefined;
  return hashPassword(input.Password);
}

async function personExtras(
  deps: CampusDeps,
  viewer: Viewer,
  input: RecordInput,
  data: RecordInput,
  existing: CampusRecord | null,
  errors: FieldErrors,
  passwordHash: string | undefined,
) {
  if (typeof data.Username === 'string') {
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(data.Username) || data.Username === 'system') {
      errors.Username = 'Username can only contain letters, numbers, hyphens, and underscores.';
    } else if (await deps.db.person.findFirst({ where: { Username: data.Username, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } })) {
      errors.Username = 'Username already registered.';
    }
  }
  if (typeof data.AccountLevel === 'string' && !hasLevel(viewer.level, data.AccountLevel as (typeof ACCOUNT_LEVELS)[number])) {
    errors.AccountLevel = 'Account Level cannot be higher than your own.';
  }
  if (input.Password !== undefined && input.Password !== null && input.Password !== '') {
    if (!acceptablePassword(input.Password)) errors.Password = 'Password must be at least 8 characters.';
    else data.PasswordHash = passwordHash ?? (await hashPassword(input.Password));
  }
  const username = data.Username ?? existing?.Username;
  if ((data.AccountLevel || data.PasswordHash) && !username) errors.Username = 'Username is required to log in.';
  if (username && !existing?.AccountLevel && !data.AccountLevel) data.AccountLevel = 'User';
  if (username) data.Class = 'Emergence\\People\\User';
}

async function prepare(deps: CampusDeps, viewer: Viewer, kind: KindSpec, input: RecordInput, existing: CampusRecord | null, passwordHash: string | undefined) {
  const { data, errors } = validateFields(kind, input, existing);
  if (kind.name === 'Person') await personExtras(deps, viewer, input, data, existing, errors, passwordHash);
  if (kind.name === 'Section') await assignSectionCode(deps, data, existing, errors);
  // Course and department codes are unique (a department's may be empty: blank is null).
  if ((kind.name === 'Course' || kind.name === 'Department') && typeof data.Code === 'string') {
    const dup = await delegate(deps.db, kind).findFirst({ where: { Code: data.Code, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } });
    if (dup) errors.Code = 'Code already registered';
  }
  await checkReferences(deps, kind, data, errors, existing?.ID ?? null);
  await checkWriteOnly(deps, kind, input, data, existing, errors);
  await assignHandle(deps, kind, data, existing, errors);
  if (kind.model === 'content' && !existing) {
    data.AuthorID ??= viewer.personId;
    if ((data.Status ?? 'Live') === 'Live') data.Published ??= deps.clock.now();
  }
  if (Object.keys(errors).length) throw new RecordValidationError(errors, submitted(kind, input));
  return data;
}

/**
 * What a failed validation echoes: the submitted values of the kind's own fields and
 * pseudo-fields (as Slate echoes the unsaved record), never other keys and never the password.
 * The request's size and nesting limits bound the values.
 */
function submitted(kind: KindSpec, input: RecordInput): RecordInput {
  const known = ['ID', 'Class', ...kind.fields.flatMap((f) => [f.name, ...(f.aliases ?? [])]), ...WRITE_ONLY[kind.name]];
  const out: RecordInput = {};
  for (const key of known) if (Object.hasOwn(input, key) && key !== 'Password') out[key] = input[key];
  return out;
}

/** Creates in the open transaction `tx`: the record, then its write-only pseudo-fields. */
async function createIn(tx: CampusDeps, viewer: Viewer, kind: KindSpec, input: RecordInput, passwordHash: string | undefined): Promise<CampusRecord> {
  requireWritable(kind, viewer, null);
  const data = await prepare(tx, viewer, kind, input, null, passwordHash);
  const standard = { Class: kind.className, Created: tx.clock.now(), CreatorID: viewer.personId };
  const created = await delegate(tx.db, kind).create({ data: { ...standard, ...data } });
  const record = await applyWriteOnly(tx, viewer, kind, created, input);
  announce(tx, kind, 'created', record);
  return record;
}

async function editIn(tx: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number, input: RecordInput, passwordHash: string | undefined): Promise<CampusRecord> {
  const existing = await requireRecord(tx, kind, ident);
  requireWritable(kind, viewer, existing);
  const data = await prepare(tx, viewer, kind, input, existing, passwordHash);
  const modified = kind.versioned ? { Modified: tx.clock.now(), ModifierID: viewer.personId } : {};
  const updated = await delegate(tx.db, kind).update({ where: { ID: existing.ID }, data: { ...data, ...modified } });
  const record = await applyWriteOnly(tx, viewer, kind, updated, input);
  announce(tx, kind, 'updated', record);
  return record;
}

export async function createRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, input: RecordInput): Promise<CampusRecord> {
  requireWritable(kind, viewer, null);
  const passwordHash = await newPasswordHash(kind, viewer, input);
  return writeTransaction(deps, (tx) => createIn(tx, viewer, kind, input, passwordHash));
}

export async function editRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number, input: RecordInput): Promise<CampusRecord> {
  const passwordHash = await newPasswordHash(kind, viewer, input);
  return writeTransaction(deps, (tx) => editIn(tx, viewer, kind, ident, input, passwordHash));
}

/** One item's outcome in a batch: the record saved (or deleted), or the refusal reported for it. */
export type BatchOutcome = { record: CampusRecord; error?: undefined } | { record?: undefined; error: DomainError };

/**
 * Slate's /save: each item with an ID edits that record, any other creates one. One request is
 * one transaction: an item refused (validation, access) is reported and leaves nothing, the
 * others are saved; an item naming a missing record stops the request (404) before anything is
 * saved; a fault in any item rolls back every item.
 */
export async function saveRecords(deps: CampusDeps, viewer: Viewer, kind: KindSpec, items: RecordInput[]): Promise<BatchOutcome[]> {
  const idOf = (item: RecordInput) => {
    const id = parseId(item.ID);
    return id && id > 0 ? id : null;
  };
  const hashes: Array<string | undefined> = [];
  for (const item of items) hashes.push(await newPasswordHash(kind, viewer, item));
  return writeTransaction(deps, async (tx) => {
    for (const item of items) {
      const id = idOf(item);
      if (id && !(await findRecord(tx, kind, id))) throw notFound('Record not found');
    }
    const outcomes: BatchOutcome[] = [];
    for (const [i, item] of items.entries()) {
      const id = idOf(item);
      outcomes.push(await outcome(() => batchItem(tx, () => (id ? editIn(tx, viewer, kind, id, item, hashes[i]) : createIn(tx, viewer, kind, item, hashes[i])))));
    }
    return outcomes;
  });
}

/** Slate's /destroy: deletes each record named; a refused one is reported, a fault rolls back all. */
export async function deleteRecords(deps: CampusDeps, viewer: Viewer, kind: KindSpec, idents: Array<string | number>): Promise<BatchOutcome[]> {
  return writeTransaction(deps, async (tx) => {
    const outcomes: BatchOutcome[] = [];
    for (const ident of idents) outcomes.push(await outcome(() => batchItem(tx, () => deleteRecord(tx, viewer, kind, ident))));
    return outcomes;
  });
}

async function outcome(work: () => Promise<CampusRecord>): Promise<BatchOutcome> {
  try {
    return { record: await work() };
  } catch (err) {
    if (err instanceof DomainError) return { error: err };
    throw err;
  }
}

/** Who still points at a record; deleting it is refused while any do (never a dangling id). */
async function blockers(deps: CampusDeps, kind: KindSpec, record: CampusRecord): Promise<string | null> {
  const db = deps.db;
  const count = async (n: number, what: string) => (n ? `${n} ${what}${n === 1 ? '' : 's'}` : null);
  const contextPosts = () => db.content.count({ where: { ContextClass: kind.className, ContextID: record.ID } });
  const found: Array<string | null> = [];
  switch (kind.name) {
    case 'Course':
      found.push(await count(await db.section.count({ where: { CourseID: record.ID } }), 'course section'));
      break;
    case 'Term':
      found.push(await count(await db.term.count({ where: { ParentID: record.ID } }), 'child term'));
      found.push(await count(await db.section.count({ where: { TermID: record.ID } }), 'course section'));
      break;
    case 'Location': {
      const ids = await subtreeIds(deps, kind, record.ID);
      found.push(await count(await db.section.count({ where: { LocationID: { in: ids } } }), 'course section'));
      break;
    }
    case 'Person':
      found.push(await count(await db.content.count({ where: { AuthorID: record.ID } }), 'authored post or page'));
      break;
    case 'Section':
      found.push(await count(await contextPosts(), 'blog post or page'));
      break;
    case 'Department':
      found.push(await count(await db.course.count({ where: { DepartmentID: record.ID } }), 'course'));
      break;
    case 'Schedule':
      found.push(await count(await db.section.count({ where: { ScheduleID: record.ID } }), 'course section'));
      break;
  }
  if (kind.name !== 'Section') found.push(await count(await contextPosts(), 'blog post or page'));
  const list = found.filter(Boolean);
  return list.length ? `Cannot delete this ${kind.noun}: ${list.join(' and ')} still refer to it` : null;
}

/**
 * Deletes a record and returns it as it was. Memberships, participants and (for groups and
 * locations) nested descendants go with it, as in Slate; anything else still pointing at it
 * makes the delete fail with a clear message.
 */
export async function deleteRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number): Promise<CampusRecord> {
  return writeTransaction(deps, async (tx) => {
    const record = await requireRecord(tx, kind, ident);
    requireWritable(kind, viewer, record);
    // Read in the transaction that deletes: nothing can start pointing at the record in between.
    const blocked = await blockers(tx, kind, record);
    if (blocked) throw conflict(blocked);
    // Comments are context children: they go with the record.
    await tx.db.comment.deleteMany({ where: { ContextClass: kind.className, ContextID: record.ID } });
    // So are notes and connector mappings (of cascaded descendants too: mappings.ts).
    await deleteNotesAndMappings(tx, kind, record.ID);
    // A person's photos (their files go once the delete commits).
    await deleteContextMedia(tx, kind, record.ID);
    await delegate(tx.db, kind).delete({ where: { ID: record.ID } });
    announce(tx, kind, 'deleted', record);
    return record;
  });
}

export { KINDS, KIND_LIST };
