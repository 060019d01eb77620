// Finding one record by the identifier a URL or a filter names, as Slate's getRecordByHandle
// does: all digits is an ID; otherwise the Handle, then (courses and sections) the Code, then
// (people) the Username and a person's email address.
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { GatewayEvents } from '../events/bus.ts';
import type { KindSpec } from './kinds.ts';
import { IDENT_MAX_CHARS, MAX_INT } from './limits.ts';
import type { RecordSearch } from './search.ts';
import type { DatabasePort } from '../db/port.ts';
import type { MediaStorage } from './media/storage.ts';
import { holdsNul } from '../shared/stored-text.ts';
import { notFound } from '../shared/errors.ts';
import { requireReadable } from './access.ts';
import type { Viewer } from './viewer.ts';

export interface CampusDeps {
  db: Db;
  clock: Clock;
  /** Where record changes are announced after they commit (live subscriptions). */
  events?: GatewayEvents;
  /** The search index behind browse `q` and text filters, for the database `db` is on (search-storage.ts). */
  search: RecordSearch;
  /** Savepoints for batch items (transaction.ts), in the terms of the database `db` is on. */
  database: Pick<DatabasePort, 'savepoints'>;
  /** Where uploaded media's bytes and thumbnails live (media/storage.ts); absent: uploads are refused. */
  media?: MediaStorage;
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

export const EMAIL_CLASS = 'Emergence\\People\\ContactPoint\\Email';

export async function findRecord(deps: CampusDeps, kind: KindSpec, ident: string | number): Promise<CampusRecord | null> {
  const s = String(ident);
  // Like an ID out of range, a longer identifier names no record: not looked up (a 404, as before).
  if (s.length > IDENT_MAX_CHARS) return null;
  // No stored identifier holds NUL (PostgreSQL text cannot; writes refuse it): it names no
  // record, where PostgreSQL would fail the query (a 500) instead of finding nothing.
  if (holdsNul(s)) return null;
  const d = delegate(deps.db, kind);
  // An ID past the 32-bit column range names no record (the query itself would fail).
  if (/^\d+$/.test(s)) return Number(s) > MAX_INT ? null : d.findFirst({ where: { ID: Number(s), ...kindScope(kind) } });
  if (kind.name === 'Person') return personByUsername(deps.db, s) as Promise<CampusRecord | null>;
  const byHandle = await d.findFirst({ where: { Handle: s, ...kindScope(kind) } });
  // The seed names sections and courses by Handle; Slate by Code (MATH-001). Both work, the
  // Handle first where one record's Handle is another's Code.
  if (byHandle || (kind.name !== 'Course' && kind.name !== 'Section')) return byHandle;
  return d.findFirst({ where: { Code: s } });
}

/**
 * Slate's User::getByUsername, for URLs and logins alike: the Username, then a person's email
 * address (the oldest such contact point). A name with NUL or past an identifier's length names
 * nobody, without a query (PostgreSQL text cannot hold NUL).
 */
export async function personByUsername(db: Db, name: string) {
  if (name.length > IDENT_MAX_CHARS || holdsNul(name)) return null;
  const byUsername = await db.person.findFirst({ where: { Username: name } });
  if (byUsername || !name.includes('@')) return byUsername;
  const point = await db.contactPoint.findFirst({ where: { Class: EMAIL_CLASS, Data: name }, select: { PersonID: true }, orderBy: { ID: 'asc' } });
  return point ? db.person.findFirst({ where: { ID: point.PersonID } }) : null;
}

/** The record `ident` names, or Slate's "Record not found". */
export async function requireRecord(deps: CampusDeps, kind: KindSpec, ident: string | number) {
  const record = await findRecord(deps, kind, ident);
  if (!record) throw notFound('Record not found');
  return record;
}

/** The record, when the viewer may read it (a 404 or 403 otherwise). */
export async function getRecord(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number) {
  const record = await requireRecord(deps, kind, ident);
  requireReadable(kind, viewer, record, deps.clock.now());
  return record;
}
