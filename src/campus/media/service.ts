// Media (Slate's Emergence Media: PhotoMedia, PDFMedia) attached to a context record, a
// person's photos above all. Who may see a media is who may read its context record; who may
// change it is Staff, or the person whose photo it is (Slate's /profile photo pages), or the
// uploader of a media with no context. Files are written before the row and removed only
// after the row's deletion commits, so a row never names a missing file.
import { holdsNul } from '../../shared/stored-text.ts';
import { randomBytes } from 'node:crypto';
import { isStaff, requireLevel, requireReadable, requireWritable, ACCESS_DENIED } from '../access.ts';
import { CONTENT_ROOT_CLASS, contentKindOf } from '../content-items.ts';
import { KINDS, type KindSpec } from '../kinds.ts';
import { BROWSE_MAX_LIMIT, InvalidRequestError, MAX_INT } from '../limits.ts';
import { findRecord, type CampusDeps, type CampusRecord } from '../lookup.ts';
import { afterCommit, writeTransaction } from '../transaction.ts';
import { peopleChanged } from '../people-changed.ts';
import type { Viewer } from '../viewer.ts';
import { forbidden, notFound, validationError } from '../../shared/errors.ts';
import { inspectUpload } from './inspect.ts';
import type { MediaStorage } from './storage.ts';
import { thumbnailPrefix } from './thumbnails.ts';

export const MEDIA_NOT_FOUND = 'Media not found';
export const CAPTION_MAX_CHARS = 255;
/** A person's photos are filed under the root class, as Slate's context children are. */
export const PERSON_CONTEXT = KINDS.Person.className;
/** Names a client may give for a person context (Slate's subclasses and its deprecated shims). */
const PERSON_CLASSES = new Set([PERSON_CONTEXT, 'Emergence\\People\\User', 'Slate\\People\\Student', 'Person', 'User']);

export interface MediaRow {
  ID: number;
  Class: string;
  Created: Date;
  CreatorID: number | null;
  ContextClass: string | null;
  ContextID: number | null;
  MIMEType: string;
  Width: number | null;
  Height: number | null;
  Duration: number | null;
  Caption: string | null;
  StorageKey: string;
  Size: number;
}


function storageOf(deps: CampusDeps): MediaStorage {
  if (!deps.media) throw new Error('media storage is not configured');
  return deps.media;
}

/** A media ID from a path or argument: a positive 32-bit integer, else no such media. */
export function mediaId(ident: string | number): number {
  const s = String(ident);
  if (!/^[1-9]\d{0,9}$/.test(s) || Number(s) > MAX_INT) throw notFound(MEDIA_NOT_FOUND);
  return Number(s);
}

type Context = { kind: KindSpec; record: CampusRecord } | null;

/** The record a media is attached to (null: none, or gone). */
async function contextOf(deps: CampusDeps, media: Pick<MediaRow, 'ContextClass' | 'ContextID'>): Promise<Context | 'gone'> {
  if (media.ContextClass === null || media.ContextID === null) return null;
  let kind: KindSpec | null = null;
  if (media.ContextClass === PERSON_CONTEXT) kind = KINDS.Person;
  else if (media.ContextClass === CONTENT_ROOT_CLASS) kind = await contentKindOf(deps, media.ContextID);
  const record = kind ? await findRecord(deps, kind, media.ContextID) : null;
  return kind && record ? { kind, record } : 'gone';
}

/** Reading: as reading the context record; a Disabled person's photos are not found (their profile is not). */
async function requireMediaReadable(deps: CampusDeps, viewer: Viewer, media: MediaRow): Promise<Context> {
  const context = await contextOf(deps, media);
  if (context === 'gone') throw notFound(MEDIA_NOT_FOUND);
  if (!context) return null;
  if (context.kind === KINDS.Person && context.record.AccountLevel === 'Disabled' && !isStaff(viewer)) throw notFound(MEDIA_NOT_FOUND);
  requireReadable(context.kind, viewer, context.record, deps.clock.now());
  return context;
}

/** Changing a media or its context's photo choice: Staff, the person themselves, an uploader of a context-less media, a post's editor. */
function requireMediaWritable(viewer: Viewer, media: MediaRow, context: Context): void {
  requireLevel(viewer, 'User');
  if (isStaff(viewer)) return;
  if (context?.kind === KINDS.Person) {
    if (context.record.ID === viewer.personId) return;
    throw forbidden(ACCESS_DENIED);
  }
  if (context) return requireWritable(context.kind, viewer, context.record);
  if (media.CreatorID !== viewer.personId) throw forbidden(ACCESS_DENIED);
}

async function findMedia(deps: CampusDeps, ident: string | number): Promise<MediaRow> {
  const media = await deps.db.media.findUnique({ where: { ID: mediaId(ident) } });
  if (!media) throw notFound(MEDIA_NOT_FOUND);
  return media;
}

/** A media the viewer may see (REST's /media/<id>, /media/open, /thumbnail; GraphQL's fields). */
export async function getMedia(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<MediaRow> {
  const media = await findMedia(deps, ident);
  await requireMediaReadable(deps, viewer, media);
  return media;
}

/** The person a context names, and that the viewer may attach photos to (Staff, or themselves). */
async function uploadContext(deps: CampusDeps, viewer: Viewer, contextClass: string, contextId: string): Promise<Context> {
  if (!contextClass && !contextId) return null;
  if (!contextClass || !contextId) throw new InvalidRequestError('ContextClass and ContextID go together');
  if (PERSON_CLASSES.has(contextClass)) {
    const person = await findRecord(deps, KINDS.Person, contextId);
    if (!person || (person.AccountLevel === 'Disabled' && !isStaff(viewer))) throw notFound('Context record not found');
    if (!isStaff(viewer) && person.ID !== viewer.personId) throw forbidden(ACCESS_DENIED);
    return { kind: KINDS.Person, record: person };
  }
  const content = [KINDS.BlogPost, KINDS.Page].find((k) => k.className === contextClass || k.name === contextClass || contextClass === CONTENT_ROOT_CLASS);
  if (content) {
    const kind = /^\d+$/.test(contextId) ? await contentKindOf(deps, Number(contextId)) : content;
    const record = kind ? await findRecord(deps, kind, contextId) : null;
    if (!kind || !record) throw notFound('Context record not found');
    requireWritable(kind, viewer, record);
    return { kind, record };
  }
  throw new InvalidRequestError(`Unsupported ContextClass ${JSON.stringify(contextClass.slice(0, 100))}: media attach to a person or a content record`);
}

export function checkCaption(caption: unknown): string | null {
  if (caption === undefined || caption === null || caption === '') return null;
  if (typeof caption !== 'string') throw new InvalidRequestError('Caption must be text');
  if (caption.length > CAPTION_MAX_CHARS) throw new InvalidRequestError(`Caption is too long: at most ${CAPTION_MAX_CHARS} characters`);
  // PostgreSQL's text cannot hold a NUL character (SQLite can): refused on both, never a 500.
  if (holdsNul(caption)) throw new InvalidRequestError('Caption must be text without NUL characters');
  return caption;
}

export interface Upload {
  bytes: Uint8Array;
  /** The part's Content-Type as the client sent it. */
  type: string;
  contextClass: string;
  contextId: string;
  caption: unknown;
}

/**
 * Slate's upload: any User may upload; a photo for a person is Staff's or the person's own.
 * A photo for a person who has no primary photo becomes it (Slate's profile upload).
 */
export async function uploadMedia(deps: CampusDeps, viewer: Viewer, upload: Upload): Promise<MediaRow> {
  requireLevel(viewer, 'User');
  const storage = storageOf(deps);
  const context = await uploadContext(deps, viewer, upload.contextClass, upload.contextId);
  const caption = checkCaption(upload.caption);
  const inspected = await inspectUpload(upload.bytes, upload.type);
  // A random key: never a name or path from the request.
  const key = `originals/${randomBytes(16).toString('hex')}`;
  await storage.put(key, upload.bytes);
  try {
    return await writeTransaction(deps, async (tx) => {
      const media = await tx.db.media.create({
        data: {
          ...inspected,
          Created: deps.clock.now(),
          CreatorID: viewer.personId,
          ContextClass: context ? (context.kind === KINDS.Person ? PERSON_CONTEXT : CONTENT_ROOT_CLASS) : null,
          ContextID: context?.record.ID ?? null,
          Caption: caption,
          StorageKey: key,
          Size: upload.bytes.length,
        },
      });
      if (context?.kind === KINDS.Person && media.Class === 'PhotoMedia') {
        // Compare-and-set: of two first uploads at once, one becomes primary.
        await tx.db.person.updateMany({ where: { ID: context.record.ID, PrimaryPhotoID: null }, data: { PrimaryPhotoID: media.ID } });
      }
      if (context?.kind === KINDS.Person) await peopleChanged(tx, [context.record.ID]);
      return media;
    });
  } catch (err) {
    await storage.remove(key);
    throw err;
  }
}

/** Removes the files of deleted media once the deletion commits (a rollback keeps them). */
function removeFilesAfterCommit(tx: CampusDeps, keys: string[]) {
  const storage = tx.media;
  if (!storage || !keys.length) return;
  afterCommit(tx, () => {
    for (const key of keys) {
      // Best effort after the commit: a file left behind is garbage, never a broken row.
      void Promise.all([storage.remove(key), storage.removeBelow(thumbnailPrefix(key))]).catch(() => {});
    }
  });
}

/** The newest of a person's remaining photos, to stand in for a deleted primary one (or null). */
async function newestPhotoId(tx: CampusDeps, personId: number): Promise<number | null> {
  const next = await tx.db.media.findFirst({ where: { ContextClass: PERSON_CONTEXT, ContextID: personId, Class: 'PhotoMedia' }, orderBy: { ID: 'desc' }, select: { ID: true } });
  return next?.ID ?? null;
}

/** Deletes a media: its row, its files, and its place as a person's primary photo (the newest other photo takes it). */
export async function deleteMedia(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<MediaRow> {
  return writeTransaction(deps, async (tx) => {
    const media = await findMedia(tx, ident);
    const context = await requireMediaReadable(tx, viewer, media);
    requireMediaWritable(viewer, media, context);
    await tx.db.media.delete({ where: { ID: media.ID } });
    const people = await tx.db.person.findMany({ where: { PrimaryPhotoID: media.ID }, select: { ID: true } });
    for (const person of people) {
      await tx.db.person.update({ where: { ID: person.ID }, data: { PrimaryPhotoID: await newestPhotoId(tx, person.ID) } });
    }
    if (media.ContextClass === PERSON_CONTEXT && media.ContextID !== null) await peopleChanged(tx, [media.ContextID]);
    removeFilesAfterCommit(tx, [media.StorageKey]);
    return media;
  });
}

export async function updateMediaCaption(deps: CampusDeps, viewer: Viewer, ident: string | number, caption: unknown): Promise<MediaRow> {
  const text = checkCaption(caption);
  return writeTransaction(deps, async (tx) => {
    const media = await findMedia(tx, ident);
    requireMediaWritable(viewer, media, await requireMediaReadable(tx, viewer, media));
    return tx.db.media.update({ where: { ID: media.ID }, data: { Caption: text } });
  });
}

/** Makes one of the person's own photos their primary one (null: none). Staff, or the person. */
export async function setPrimaryPhoto(deps: CampusDeps, viewer: Viewer, personIdent: string | number, photo: string | number | null): Promise<CampusRecord> {
  requireLevel(viewer, 'User');
  return writeTransaction(deps, async (tx) => {
    const person = await findRecord(tx, KINDS.Person, personIdent);
    if (!person || (person.AccountLevel === 'Disabled' && !isStaff(viewer))) throw notFound('Record not found');
    if (!isStaff(viewer) && person.ID !== viewer.personId) throw forbidden(ACCESS_DENIED);
    let id: number | null = null;
    if (photo !== null) {
      const media = await findMedia(tx, photo);
      if (media.ContextClass !== PERSON_CONTEXT || media.ContextID !== person.ID || media.Class !== 'PhotoMedia') throw validationError("The primary photo must be one of the person's own photos");
      id = media.ID;
    }
    const updated = (await tx.db.person.update({ where: { ID: person.ID }, data: { PrimaryPhotoID: id } })) as unknown as CampusRecord;
    await peopleChanged(tx, [person.ID]);
    return updated;
  });
}

/** With a record's deletion (service.ts deleteRecord): the media in its context go too, files after the commit. */
export async function deleteContextMedia(tx: CampusDeps, kind: KindSpec, id: number): Promise<void> {
  if (kind !== KINDS.Person) return;
  const rows = await tx.db.media.findMany({ where: { ContextClass: PERSON_CONTEXT, ContextID: id }, select: { ID: true, StorageKey: true } });
  if (!rows.length) return;
  await tx.db.media.deleteMany({ where: { ID: { in: rows.map((r) => r.ID) } } });
  removeFilesAfterCommit(tx, rows.map((r) => r.StorageKey));
}

/** A media row without its storage key (which never leaves the domain). */
export type PublicMedia = Omit<MediaRow, 'StorageKey'>;

/** Each person's photos, oldest first, in one query. */
export async function photosOf(deps: CampusDeps, personIds: readonly number[]): Promise<Map<number, PublicMedia[]>> {
  const out = new Map<number, PublicMedia[]>(personIds.map((id) => [id, []]));
  if (!personIds.length) return out;
  const rows = await deps.db.media.findMany({ where: { ContextClass: PERSON_CONTEXT, ContextID: { in: [...personIds] }, Class: 'PhotoMedia' }, orderBy: { ID: 'asc' }, omit: { StorageKey: true } });
  for (const row of rows) out.get(row.ContextID!)?.push(row);
  return out;
}

/** Media by ID, in one query (a page of people's primary photos). */
export async function mediaByIds(deps: CampusDeps, ids: readonly number[]): Promise<Map<number, PublicMedia>> {
  if (!ids.length) return new Map();
  const rows = await deps.db.media.findMany({ where: { ID: { in: [...ids] } }, omit: { StorageKey: true } });
  return new Map(rows.map((r) => [r.ID, r]));
}

/** The primary photo of a person the viewer may read (/people/<h>/thumbnail); not found without one. */
export async function primaryPhotoOf(deps: CampusDeps, viewer: Viewer, personIdent: string): Promise<MediaRow> {
  const person = await findRecord(deps, KINDS.Person, personIdent);
  if (!person || (person.AccountLevel === 'Disabled' && !isStaff(viewer))) throw notFound('Record not found');
  requireReadable(KINDS.Person, viewer, person, deps.clock.now());
  if (typeof person.PrimaryPhotoID !== 'number') throw notFound('This person has no photo');
  return getMedia(deps, viewer, person.PrimaryPhotoID);
}

/** Whether the viewer may change this person's photos (the app shows upload, delete, make-primary). */
export const mayManagePhotos = (viewer: Viewer, personId: number) => isStaff(viewer) || (viewer.personId === personId && viewer.level !== null);


/** Slate's /media browse (Staff): newest first, `limit` at most BROWSE_MAX_LIMIT, `offset` with a limit. */
export async function browseMedia(deps: CampusDeps, viewer: Viewer, options: { limit?: number; offset?: number } = {}) {
  requireLevel(viewer, 'Staff');
  const take = Math.min(options.limit || BROWSE_MAX_LIMIT, BROWSE_MAX_LIMIT);
  const [records, total] = await Promise.all([
    deps.db.media.findMany({ orderBy: { ID: 'desc' }, take, skip: options.limit ? options.offset || undefined : undefined, omit: { StorageKey: true } }),
    deps.db.media.count(),
  ]);
  return { records, total, limit: options.limit ? take : null };
}

/**
 * A PrimaryPhotoID written through a person's fields (REST edit, /save, GraphQL input): a
 * PhotoMedia of this person, else Slate-style field error text (null: fine, or not set).
 */
export async function primaryPhotoError(deps: CampusDeps, value: unknown, person: CampusRecord | null): Promise<string | null> {
  if (typeof value !== 'number') return null;
  const media = await deps.db.media.findUnique({ where: { ID: value }, select: { Class: true, ContextClass: true, ContextID: true } });
  if (!media || media.Class !== 'PhotoMedia') return `Primary Photo ${value} does not exist.`;
  if (media.ContextClass !== PERSON_CONTEXT || media.ContextID !== person?.ID) return "PrimaryPhoto must be one of the person's own photos";
  return null;
}
