// One generic records service for the eight kinds (Slate's RecordsRequestHandler idea):
// browse, read, create, edit, delete, batch save and destroy. Both transports call these.
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { GatewayEvents } from '../monitoring/events.ts';
import { conflict, notFound, RecordValidationError, validationError } from '../shared/errors.ts';
import { isStaff, publicFilter, requireLevel, requireReadable, requireWritable } from './access.ts';
import { hashPassword, type Viewer } from './auth.ts';
import { handleError, handleFromText, uniqueHandle } from './handle.ts';
import { ACCOUNT_LEVELS, hasLevel, KIND_LIST, KINDS, type KindSpec } from './kinds.ts';
import { spacify, validateFields, type FieldErrors, type RecordInput } from './validate.ts';
import { applyWriteOnly, checkWriteOnly, WRITE_ONLY } from './write-only.ts';
import { InvalidRequestError, MAX_INT, SEARCH_MAX_IDS } from './limits.ts';
import { scanWhere, searchWords, type RecordSearch } from './search.ts';
import { sqliteRecordSearch } from './sqlite-search.ts';

export interface CampusDeps {
  db: Db;
  clock: Clock;
  /** Where record changes are announced after they commit (live subscriptions). */
  events?: GatewayEvents;
  /** The search index behind browse `q` (default: SQLite's, on `db`). */
  search?: RecordSearch;
}

function announce(deps: CampusDeps, kind: KindSpec, action: 'created' | 'updated' | 'deleted', record: CampusRecord) {
  deps.events?.emit('recordChanged', { kind: kind.name, action, record });
}

export type CampusRecord = Record<string, unknown> & { ID: number };

interface Delegate {
  findFirst(args: object): Promise<CampusRecord | null>;
  findMany(args: object): Promise<CampusRecord[]>;
  count(args: object): Promise<number>;
  create(args: object): Promise<CampusRecord>;
  update(args: object): Promise<CampusRecord>;
  delete(args: object): Promise<CampusRecord>;
}

export const delegate = (db: Db, kind: KindSpec) => (db as unknown as Record<string, Delegate>)[kind.model]!;
/** Blog posts and pages share a table; each kind sees only its own class. */
export const kindScope = (kind: KindSpec): Record<string, unknown> => (kind.model === 'content' ? { Class: kind.className } : {});

/** Slate's lookup: all digits is an ID, anything else the Handle (people: the Username). */
export function identWhere(kind: KindSpec, ident: string | number): Record<string, unknown> {
  const s = String(ident);
  if (/^\d+$/.test(s)) return { ID: Number(s) };
  return kind.name === 'Person' ? { Username: s } : { Handle: s };
}

export async function findRecord(deps: CampusDeps, kind: KindSpec, ident: string | number): Promise<CampusRecord | null> {
  // An ID past the 32-bit column range names no record (the query itself would fail).
  if (/^\d+$/.test(String(ident)) && Number(ident) > MAX_INT) return null;
  return delegate(deps.db, kind).findFirst({ where: { ...identWhere(kind, ident), ...kindScope(kind) } });
}

async function requireRecord(deps: CampusDeps, kind: KindSpec, ident: string | number) {
  const record = await findRecord(deps, kind, ident);
  if (!record) throw notFound('Record not found');
  return record;
}

export async function getRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number) {
  const record = await requireRecord(deps, kind, ident);
  requireReadable(kind, viewer, record, deps.clock.now());
  return record;
}

export interface BrowseOptions {
  limit?: number;
  offset?: number;
  sort?: string;
  dir?: 'ASC' | 'DESC';
  q?: string;
  /** Extra equality filters (GraphQL: parent, course, term, ...). */
  where?: Record<string, unknown>;
}

const pageNumber = (name: string, v: number | undefined) => {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_INT)) throw new InvalidRequestError(`${name} must be a whole number from 0 to ${MAX_INT}`);
  return v;
};

export async function browseRecords(deps: CampusDeps, viewer: Viewer, kind: KindSpec, options: BrowseOptions = {}) {
  requireLevel(viewer, kind.access.browse);
  const limit = pageNumber('limit', options.limit);
  const offset = pageNumber('offset', options.offset);
  const sortable = new Set(['ID', 'Created', 'Modified', ...kind.fields.map((f) => f.name)]);
  if (options.sort && !sortable.has(options.sort)) throw validationError('Invalid sort field');
  const where: Record<string, unknown> = { ...kindScope(kind), ...publicFilter(kind, viewer, deps.clock.now()), ...options.where };
  // Below Staff, people see only themselves (Slate also shows wards; we have no guardians).
  if (kind.name === 'Person' && !isStaff(viewer)) where.ID = viewer.personId ?? -1;
  const words = options.q ? searchWords(options.q) : [];
  if (words.length) {
    // The index answers the words; visibility, filters and paging then apply as to any browse.
    const ids = await (deps.search ?? sqliteRecordSearch(deps.db)).ids(kind, words, SEARCH_MAX_IDS);
    where.AND = ids.length <= SEARCH_MAX_IDS ? [{ ID: { in: ids } }] : scanWhere(kind, words);
  }
  const orderBy = options.sort ? [{ [options.sort]: options.dir === 'DESC' ? 'desc' : 'asc' }, { ID: 'asc' }] : kind.order;
  const d = delegate(deps.db, kind);
  const [records, total] = await Promise.all([
    d.findMany({ where, orderBy, take: limit || undefined, skip: limit ? offset || undefined : undefined }),
    d.count({ where }),
  ]);
  return { records, total };
}

async function checkReferences(deps: CampusDeps, kind: KindSpec, data: RecordInput, errors: FieldErrors, selfId: number | null) {
  for (const field of kind.fields) {
    const value = data[field.name];
    if (!field.ref || value === null || value === undefined || errors[field.name]) continue;
    const target = KINDS[field.ref];
    const found = await delegate(deps.db, target).findFirst({ where: { ID: value, ...kindScope(target) }, select: target.tree ? { ID: true, ParentID: true } : { ID: true } });
    if (!found) {
      errors[field.name] = `${spacify(field.ref)} ${value} does not exist.`;
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
  data.Handle = await uniqueHandle(handleFromText(source) || kind.noun.replace(/\s+/g, '_'), taken);
}

/** Section codes: the course code upper-cased with an always-present 3-digit suffix (MATH-001). */
async function assignSectionCode(deps: CampusDeps, data: RecordInput, existing: CampusRecord | null, errors: FieldErrors) {
  const taken = async (code: string) => !!(await deps.db.section.findFirst({ where: { Code: code, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } }));
  if (typeof data.Code === 'string') {
    if (await taken(data.Code)) errors.Code = 'Code already registered';
    return;
  }
  if (existing || typeof data.CourseID !== 'number' || errors.CourseID) return;
  const course = await deps.db.course.findUnique({ where: { ID: data.CourseID }, select: { Code: true } });
  const base = (course?.Code ?? 'SECTION').toUpperCase().replace(/\s+/g, '_');
  for (let n = 1; ; n++) {
    const code = `${base}-${String(n).padStart(3, '0')}`;
    if (!(await taken(code))) return void (data.Code = code);
  }
}

async function personExtras(deps: CampusDeps, viewer: Viewer, input: RecordInput, data: RecordInput, existing: CampusRecord | null, errors: FieldErrors) {
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
    if (typeof input.Password !== 'string' || input.Password.length < 8) errors.Password = 'Password must be at least 8 characters.';
    else data.PasswordHash = await hashPassword(input.Password);
  }
  const username = data.Username ?? existing?.Username;
  if ((data.AccountLevel || data.PasswordHash) && !username) errors.Username = 'Username is required to log in.';
  if (username && !existing?.AccountLevel && !data.AccountLevel) data.AccountLevel = 'User';
  if (username) data.Class = 'Emergence\\People\\User';
}

async function prepare(deps: CampusDeps, viewer: Viewer, kind: KindSpec, input: RecordInput, existing: CampusRecord | null) {
  const { data, errors } = validateFields(kind, input, existing);
  if (kind.name === 'Person') await personExtras(deps, viewer, input, data, existing, errors);
  if (kind.name === 'Section') await assignSectionCode(deps, data, existing, errors);
  if (kind.name === 'Course' && typeof data.Code === 'string') {
    const dup = await deps.db.course.findFirst({ where: { Code: data.Code, NOT: existing ? { ID: existing.ID } : undefined }, select: { ID: true } });
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

export async function createRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, input: RecordInput): Promise<CampusRecord> {
  requireWritable(kind, viewer, null);
  const data = await prepare(deps, viewer, kind, input, null);
  const standard = { Class: kind.className, Created: deps.clock.now(), CreatorID: viewer.personId };
  const created = await delegate(deps.db, kind).create({ data: { ...standard, ...data } });
  const record = await applyWriteOnly(deps, viewer, kind, created, input);
  announce(deps, kind, 'created', record);
  return record;
}

export async function editRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number, input: RecordInput): Promise<CampusRecord> {
  const existing = await requireRecord(deps, kind, ident);
  requireWritable(kind, viewer, existing);
  const data = await prepare(deps, viewer, kind, input, existing);
  const modified = kind.versioned ? { Modified: deps.clock.now(), ModifierID: viewer.personId } : {};
  const updated = await delegate(deps.db, kind).update({ where: { ID: existing.ID }, data: { ...data, ...modified } });
  const record = await applyWriteOnly(deps, viewer, kind, updated, input);
  announce(deps, kind, 'updated', record);
  return record;
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
  }
  if (kind.name !== 'Section') found.push(await count(await contextPosts(), 'blog post or page'));
  const list = found.filter(Boolean);
  return list.length ? `Cannot delete this ${kind.noun}: ${list.join(' and ')} still refer to it` : null;
}

async function subtreeIds(deps: CampusDeps, kind: KindSpec, rootId: number): Promise<number[]> {
  const ids = [rootId];
  for (let frontier = [rootId]; frontier.length; ) {
    const children = await delegate(deps.db, kind).findMany({ where: { ParentID: { in: frontier } }, select: { ID: true } });
    frontier = children.map((c) => c.ID);
    ids.push(...frontier);
  }
  return ids;
}

/**
 * Deletes a record and returns it as it was. Memberships, participants and (for groups and
 * locations) nested descendants go with it, as in Slate; anything else still pointing at it
 * makes the delete fail with a clear message.
 */
export async function deleteRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number): Promise<CampusRecord> {
  const record = await requireRecord(deps, kind, ident);
  requireWritable(kind, viewer, record);
  const blocked = await blockers(deps, kind, record);
  if (blocked) throw conflict(blocked);
  // Comments are context children: they go with the record.
  await deps.db.$transaction([
    deps.db.comment.deleteMany({ where: { ContextClass: kind.className, ContextID: record.ID } }),
    (delegate(deps.db, kind) as unknown as { delete(a: object): never }).delete({ where: { ID: record.ID } }),
  ]);
  announce(deps, kind, 'deleted', record);
  return record;
}

export { KINDS, KIND_LIST };
