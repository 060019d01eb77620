// Slate's media routes: uploads (multipart `mediaFile`) checked by their bytes, stored through
// the storage port, a person's photos and primary photo, the file and thumbnails with caching
// headers, access by the context person, and deletion cleaning up files and the primary photo.
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { openBrowserSession } from '../../../src/identity/sessions.ts';

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
const w = useWorld({ MEDIA_DIR: mediaDir });
const PERSON = 'Emergence\\People\\Person';

type Who = { token: string; person_id: number };
let staff: Who;
let user: Who;
let subject: Who;
let png: Buffer;
let jpeg: Buffer;

const files = (dir = mediaDir): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

async function upload(token: string | null, file: { bytes: Uint8Array; type: string; name?: string } | null, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const form = new FormData();
  if (file) form.set('mediaFile', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name ?? 'photo');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await fetch(`${w.url}/media/upload`, { method: 'POST', body: form, headers: { ...(token ? { Authorization: `Token ${token}` } : {}), ...headers } });
  return { status: res.status, json: (await res.json()) as any };
}
const photoFor = (who: Who, by: string, bytes: Uint8Array = png, type = 'image/png') => upload(by, { bytes, type, name: 'me.png' }, { ContextClass: PERSON, ContextID: String(who.person_id) });
const get = (p: string, token: string | null = null, headers: Record<string, string> = {}) => fetch(w.url + p, { headers: { ...(token ? { Authorization: `Token ${token}` } : {}), ...headers } });
const primaryOf = async (id: number) => (await w.app.db.person.findUniqueOrThrow({ where: { ID: id } })).PrimaryPhotoID;

beforeAll(async () => {
  staff = await w.campusToken('Staff');
  user = await w.campusToken('User');
  subject = await w.campusToken('User');
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } }).png().toBuffer();
  jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#a37' } }).jpeg().toBuffer();
});

describe('POST /media/upload', () => {
  it('stores a photo for a person: the row with its dimensions, the file, and the first photo becomes primary', async () => {
    const first = await photoFor(subject, staff.token);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ success: true, data: { Class: 'PhotoMedia', CreatorID: staff.person_id, ContextClass: PERSON, ContextID: subject.person_id, MIMEType: 'image/png', Width: 640, Height: 480, Duration: null, Caption: null } });
    expect(first.json.data).not.toHaveProperty('StorageKey');
    const row = await w.app.db.media.findUniqueOrThrow({ where: { ID: first.json.data.ID } });
    expect(row).toMatchObject({ Size: png.length, MIMEType: 'image/png' });
    expect(row.StorageKey).toMatch(/^originals\/[0-9a-f]{32}$/);
    expect(await w.app.services.campus.media!.get(row.StorageKey)).toEqual(png);
    expect(await primaryOf(subject.person_id)).toBe(row.ID);
    // The person uploads their own; a second photo leaves the primary one as it is.
    const second = await upload(subject.token, { bytes: jpeg, type: 'image/jpeg' }, { ContextClass: 'Emergence\\People\\User', ContextID: String(subject.person_id), Caption: 'Summer' });
    expect(second.json.data).toMatchObject({ MIMEType: 'image/jpeg', Width: 300, Height: 200, Caption: 'Summer', ContextClass: PERSON });
    expect(await primaryOf(subject.person_id)).toBe(row.ID);
    // A PDF is a PDFMedia, never anyone's primary photo.
    const pdf = await upload(staff.token, { bytes: Buffer.from('%PDF-1.4\n%%EOF\n'), type: 'application/pdf' });
    expect(pdf.json.data).toMatchObject({ Class: 'PDFMedia', MIMEType: 'application/pdf', Width: null, ContextClass: null });
  });

  it('refuses bad uploads with a 4xx and stores nothing: no row, no file', async () => {
    const rows = await w.app.db.media.count();
    const stored = files().length;
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    const cases: Array<[Awaited<ReturnType<typeof upload>>, number, string]> = [
      [await upload(staff.token, { bytes: random, type: 'image/png', name: 'fake.png' }), 400, 'The uploaded file is not a valid image'],
      [await upload(staff.token, { bytes: png.subarray(0, 200), type: 'image/png' }), 400, 'The uploaded file is not a valid image'],
      [await upload(staff.token, { bytes: Buffer.from('hello'), type: 'text/plain', name: 'a.txt' }), 400, 'Unsupported file type: upload a JPEG, PNG, GIF or WebP photo, or a PDF document'],
      [await upload(staff.token, { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'), type: 'image/svg+xml' }), 400, 'Unsupported file type'],
      [await upload(staff.token, { bytes: Buffer.alloc(10 * 1024 * 1024 + 1), type: 'image/png' }), 413, 'The uploaded file is too large: at most 10 MB'],
      // Far over: refused while reading the body, before any parsing.
      [await upload(staff.token, { bytes: Buffer.alloc(12 * 1024 * 1024), type: 'image/png' }), 413, 'The uploaded file is too large: at most 10 MB'],
      [await upload(staff.token, null, { Caption: 'x' }), 400, 'You did not select a file to upload'],
      [await upload(staff.token, { bytes: png, type: 'image/png' }, { ContextClass: 'Slate\\Courses\\Section', ContextID: '1' }), 400, 'Unsupported ContextClass'],
      [await upload(staff.token, { bytes: png, type: 'image/png' }, { ContextClass: PERSON, ContextID: '999999' }), 404, 'Context record not found'],
      [await upload(staff.token, { bytes: png, type: 'image/png' }, { Caption: 'x'.repeat(256) }), 400, 'Caption is too long'],
      // A NUL in the caption (the fuzzer's find: PostgreSQL's text cannot hold one, which was a 500 there).
      [await upload(staff.token, { bytes: png, type: 'image/png' }, { Caption: 'RIFF\u0000\u0000WEBP' }), 400, 'Caption must be text without NUL characters'],
    ];
    for (const [res, status, message] of cases) {
      expect(res.status, message).toBe(status);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toContain(message);
    }
    const json = await fetch(`${w.url}/media/upload`, { method: 'POST', headers: { Authorization: `Token ${staff.token}`, 'Content-Type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    expect(await w.app.db.media.count()).toBe(rows);
    expect(files().length).toBe(stored);
  });

  it('needs a login; a User uploads for themselves only, Staff for anyone', async () => {
    const rows = await w.app.db.media.count();
    expect((await photoFor(subject, null as unknown as string)).status).toBe(401);
    const other = await photoFor(subject, user.token);
    expect(other.status).toBe(403);
    expect(other.json.message).toBe('You do not have authorization to access this resource');
    expect(await w.app.db.media.count()).toBe(rows);
  });

  it("takes the app's session cookie only from the site's own pages", async () => {
    const { token } = await openBrowserSession(w.app.db, w.app.services.identity.settings.sessions, { personId: user.person_id, now: w.clock.now() });
    const cookie = `gateway_session=${token}`;
    const own = await upload(null, { bytes: png, type: 'image/png' }, { ContextClass: PERSON, ContextID: String(user.person_id) }, { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(await primaryOf(user.person_id)).toBe(own.json.data.ID);
    const crossSite = await upload(null, { bytes: png, type: 'image/png' }, {}, { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(401);
    const noProvenance = await upload(null, { bytes: png, type: 'image/png' }, {}, { Cookie: cookie });
    expect(noProvenance.status).toBe(401);
    const sameOrigin = await upload(null, { bytes: png, type: 'image/png' }, {}, { Cookie: cookie, Origin: w.url });
    expect(sameOrigin.status).toBe(200);
    // A GET (an <img>) carries it too.
    expect((await get(`/media/${own.json.data.ID}`, null, { Cookie: cookie })).status).toBe(200);
  });
});

describe('serving media', () => {
  let id: number;
  beforeAll(async () => {
    id = (await w.app.db.media.findFirstOrThrow({ where: { ContextID: subject.person_id, MIMEType: 'image/png' } })).ID;
  });

  it('answers the record as JSON, the original with its type, an ETag and private caching, and 304 when unchanged', async () => {
    const json = await (await get(`/media/${id}`)).json();
    expect(json).toMatchObject({ success: true, data: { ID: id, Class: 'PhotoMedia', Width: 640, Height: 480 } });
    const open = await get(`/media/open/${id}`);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('image/png');
    expect(open.headers.get('cache-control')).toBe('private, no-cache');
    expect(open.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await open.arrayBuffer())).toEqual(png);
    const etag = open.headers.get('etag')!;
    expect(etag).toMatch(/^"m\d+-[0-9a-f]{12}"$/);
    const again = await get(`/media/open/${id}`, null, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    for (const bad of ['/media/999999', '/media/open/999999', '/media/open/abc', '/thumbnail/999999/10x10']) expect((await get(bad)).status, bad).toBe(404);
  });

  it('makes thumbnails that fit (or fill, cropped) the box, caches them on disk, and bounds the size', async () => {
    const fit = await get(`/thumbnail/${id}/100x100`);
    expect(fit.status).toBe(200);
    expect(fit.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await fit.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 100, height: 75 });
    const cached = files().filter((f) => f.includes(`${path.sep}thumbnails${path.sep}`) && f.endsWith('100x100'));
    expect(cached).toHaveLength(1);
    expect(Buffer.from(await (await get(`/thumbnail/${id}/100x100`)).arrayBuffer())).toEqual(bytes);
    expect((await get(`/thumbnail/${id}/100x100`, null, { 'If-None-Match': fit.headers.get('etag')! })).status).toBe(304);
    const cropped = await get(`/thumbnail/${id}/50x50/cropped`);
    expect(await sharp(Buffer.from(await cropped.arrayBuffer())).metadata()).toMatchObject({ width: 50, height: 50 });
    expect(cropped.headers.get('etag')).not.toBe(fit.headers.get('etag'));
    // Never enlarged: a box bigger than the photo gives the photo's size.
    expect(await sharp(Buffer.from(await (await get(`/thumbnail/${id}/1000x1000`)).arrayBuffer())).metadata()).toMatchObject({ width: 640, height: 480 });
    for (const size of ['1001x10', '0x10', '10', 'axb']) {
      const res = await get(`/thumbnail/${id}/${size}`);
      expect(res.status, size).toBe(400);
    }
    // The person's primary photo.
    const person = await get(`/people/${subject.person_id}/thumbnail/40x40/cropped`);
    expect(await sharp(Buffer.from(await person.arrayBuffer())).metadata()).toMatchObject({ width: 40, height: 40 });
    expect((await get(`/people/${subject.person_id}/thumbnail`)).status).toBe(200);
    expect((await get(`/people/${staff.person_id}/thumbnail`)).status).toBe(404);
    // A PDF has no thumbnail.
    const pdf = await w.app.db.media.findFirstOrThrow({ where: { Class: 'PDFMedia' } });
    expect((await get(`/thumbnail/${pdf.ID}/100x100`)).status).toBe(404);
    expect((await get(`/media/open/${pdf.ID}`)).headers.get('content-type')).toBe('application/pdf');
  });

  it('shows photos to whoever may read the person: a Disabled person’s only to Staff', async () => {
    const disabled = (await w.campus('POST', '/people/create', { token: staff.token, fields: { FirstName: 'Gone', LastName: 'Away' }, json: true })).json.data;
    const photo = await photoFor({ token: '', person_id: disabled.ID }, staff.token);
    expect(photo.status).toBe(200);
    await w.app.db.person.update({ where: { ID: disabled.ID }, data: { AccountLevel: 'Disabled' } });
    const paths = [`/media/${photo.json.data.ID}`, `/media/open/${photo.json.data.ID}`, `/thumbnail/${photo.json.data.ID}/10x10`, `/people/${disabled.ID}/thumbnail`];
    for (const p of paths) {
      expect((await get(p)).status, p).toBe(404);
      expect((await get(p, user.token)).status, p).toBe(404);
      expect((await get(p, staff.token)).status, p).toBe(200);
    }
    // An active person's photos are as public as their record.
    expect((await get(`/media/open/${id}`)).status).toBe(200);
    expect((await get(`/media/open/${id}`, user.token)).status).toBe(200);
  });

  it('browses every media for Staff only, newest first', async () => {
    expect((await get('/media')).status).toBe(401);
    expect((await get('/media', user.token)).status).toBe(403);
    const all = (await (await get('/media?limit=2', staff.token)).json()) as { data: Array<{ ID: number }>; total: number; limit: number };
    expect(all.total).toBe(await w.app.db.media.count());
    expect(all.limit).toBe(2);
    expect(all.data).toHaveLength(2);
    expect(all.data[0]!.ID).toBeGreaterThan(all.data[1]!.ID);
    expect(all.data[0]).not.toHaveProperty('StorageKey');
  });

  it('includes Photos and PrimaryPhoto on people, in one query each for a list', async () => {
    const one = await w.campus('GET', `/people/${subject.person_id}?include=Photos,PrimaryPhoto`, { token: user.token });
    expect(one.json.data.PrimaryPhoto).toMatchObject({ ID: id, Class: 'PhotoMedia', MIMEType: 'image/png', Width: 640 });
    expect(one.json.data.PrimaryPhoto).not.toHaveProperty('StorageKey');
    expect(one.json.data.Photos.map((p: { MIMEType: string }) => p.MIMEType)).toEqual(['image/png', 'image/jpeg']);
    const list = await w.campus('GET', `/people?include=PrimaryPhoto,Photos&limit=50`, { token: staff.token });
    const byId = new Map(list.json.data.map((p: { ID: number }) => [p.ID, p]));
    expect((byId.get(staff.person_id) as { Photos: unknown[]; PrimaryPhoto: unknown }).PrimaryPhoto).toBeNull();
    expect((byId.get(subject.person_id) as { Photos: unknown[] }).Photos).toHaveLength(2);
  });
});

describe('changing and deleting media', () => {
  it('edits a caption and deletes a photo: its file and thumbnails go, the newest other photo becomes primary', async () => {
    const primary = (await primaryOf(subject.person_id))!;
    const other = await w.app.db.media.findFirstOrThrow({ where: { ContextID: subject.person_id, NOT: { ID: primary } } });
    expect((await w.campus('POST', `/media/${primary}/edit`, { token: user.token, fields: { Caption: 'no' }, json: true })).status).toBe(403);
    const edited = await w.campus('POST', `/media/${primary}/edit`, { token: subject.token, fields: { Caption: 'Me' }, json: true });
    expect(edited.json.data.Caption).toBe('Me');
    const row = await w.app.db.media.findUniqueOrThrow({ where: { ID: primary } });
    await get(`/thumbnail/${primary}/20x20`);
    const key = row.StorageKey.split('/')[1]!;
    expect(files().filter((f) => f.includes(key)).length).toBeGreaterThan(1);
    expect((await w.campus('GET', `/media/${primary}/delete`, { token: subject.token })).json).toMatchObject({ question: 'Are you sure you want to delete this media?' });
    expect((await w.campus('POST', `/media/${primary}/delete`, { token: user.token })).status).toBe(403);
    expect((await w.campus('POST', `/media/${primary}/delete`, { token: null })).status).toBe(401);
    const deleted = await w.campus('POST', `/media/${primary}/delete`, { token: subject.token });
    expect(deleted.json).toMatchObject({ success: true, data: { ID: primary } });
    expect(await w.app.db.media.findUnique({ where: { ID: primary } })).toBeNull();
    expect(await primaryOf(subject.person_id)).toBe(other.ID);
    await expect.poll(() => files().filter((f) => f.includes(key)).length).toBe(0);
    expect((await get(`/media/open/${primary}`)).status).toBe(404);
    // A primary photo set through the person's fields must be their own photo.
    const foreign = (await w.app.db.media.findFirstOrThrow({ where: { ContextID: user.person_id } })).ID;
    const refused = await w.campus('POST', `/people/${subject.person_id}/edit`, { token: staff.token, fields: { PrimaryPhotoID: foreign }, json: true });
    expect(refused.json).toMatchObject({ success: false, validationErrors: { PrimaryPhotoID: "PrimaryPhoto must be one of the person's own photos" } });
    expect((await w.campus('POST', `/people/${subject.person_id}/edit`, { token: staff.token, fields: { PrimaryPhotoID: 999999 }, json: true })).json.validationErrors).toEqual({ PrimaryPhotoID: 'Primary Photo 999999 does not exist.' });
    expect((await w.campus('POST', `/people/${subject.person_id}/edit`, { token: staff.token, fields: { PrimaryPhotoID: other.ID }, json: true })).json.success).toBe(true);
    expect(await primaryOf(subject.person_id)).toBe(other.ID);
    // The last photo deleted: no primary photo.
    await w.campus('POST', `/media/${other.ID}/delete`, { token: staff.token });
    expect(await primaryOf(subject.person_id)).toBeNull();
  });

  it("removes a person's media, rows and files, when the person is deleted", async () => {
    const person = (await w.campus('POST', '/people/create', { token: staff.token, fields: { FirstName: 'Leaving', LastName: 'Soon' }, json: true })).json.data;
    const a = await photoFor({ token: '', person_id: person.ID }, staff.token);
    await photoFor({ token: '', person_id: person.ID }, staff.token, jpeg, 'image/jpeg');
    const keys = (await w.app.db.media.findMany({ where: { ContextID: person.ID, ContextClass: PERSON } })).map((m) => m.StorageKey);
    expect(keys).toHaveLength(2);
    expect(await primaryOf(person.ID)).toBe(a.json.data.ID);
    expect((await w.campus('POST', `/people/${person.ID}/delete`, { token: staff.token })).status).toBe(200);
    expect(await w.app.db.media.count({ where: { ContextID: person.ID, ContextClass: PERSON } })).toBe(0);
    for (const key of keys) await expect.poll(() => w.app.services.campus.media!.get(key)).toBeNull();
  });
});
