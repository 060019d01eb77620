// Media over GraphQL: Person.photos and primaryPhoto, the Media fields, setPrimaryPhoto,
// updateMediaCaption and deleteMedia under the same rules as REST (Staff, or the person), and
// a page of people with their photos in the same database calls for 2 people as for 8.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import { campusGql } from '../helpers/gql.ts';
import { createYogaServer } from '../../src/graphql/server/yoga.ts';
import { callRecordingDb, servicesOn } from './in-process.ts';

const w = useWorld();
let staff: { token: string; person_id: number };
let user: { token: string; person_id: number };
let pupil: { token: string; person_id: number };
let png: Buffer;

const q = (query: string, variables: Record<string, unknown> = {}, token: string | null = staff.token) => campusGql(w, query, variables, token) as Promise<{ status: number; data?: any; errors?: any[] }>;

async function photoFor(personId: number, caption?: string): Promise<number> {
  const form = new FormData();
  form.set('mediaFile', new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'p.png');
  form.set('ContextClass', 'Emergence\\People\\Person');
  form.set('ContextID', String(personId));
  if (caption) form.set('Caption', caption);
  const res = await fetch(`${w.url}/media/upload`, { method: 'POST', body: form, headers: { Authorization: `Token ${staff.token}` } });
  return ((await res.json()) as { data: { ID: number } }).data.ID;
}

const PHOTOS = 'query($id: ID!) { person(id: $id) { primaryPhoto { databaseId } photos { databaseId class mimeType width height size caption url thumbnailUrl(width: 400, height: 400) crop: thumbnailUrl(width: 50, height: 50, cropped: true) contextClass contextId creatorId } } }';

beforeAll(async () => {
  staff = await w.campusToken('Staff');
  user = await w.campusToken('User');
  pupil = await w.campusToken('User');
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123456' } }).png().toBuffer();
});

describe('media over GraphQL', () => {
  it("lists a person's photos and primary photo with their fields and URLs", async () => {
    const first = await photoFor(pupil.person_id, 'First');
    const second = await photoFor(pupil.person_id);
    const res = await q(PHOTOS, { id: pupil.person_id }, null);
    expect(res.errors).toBeUndefined();
    expect(res.data.person.primaryPhoto).toEqual({ databaseId: first });
    expect(res.data.person.photos).toEqual([
      { databaseId: first, class: 'PhotoMedia', mimeType: 'image/png', width: 64, height: 48, size: png.length, caption: 'First', url: `/media/open/${first}`, thumbnailUrl: `/thumbnail/${first}/400x400`, crop: `/thumbnail/${first}/50x50/cropped`, contextClass: 'Emergence\\People\\Person', contextId: pupil.person_id, creatorId: staff.person_id },
      expect.objectContaining({ databaseId: second, caption: null }),
    ]);
    const tooBig = await q('query($id: ID!) { person(id: $id) { photos { thumbnailUrl(width: 5000, height: 10) } } }', { id: pupil.person_id });
    expect(tooBig.errors![0]).toMatchObject({ message: 'Thumbnail size must be at most 1000x1000', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await q(PHOTOS, { id: user.person_id })).data.person).toEqual({ primaryPhoto: null, photos: [] });
    // A Disabled person's photos are Staff's only (REST answers 404 for their files).
    const gone = (await q('mutation($i: PersonInput!) { createPerson(input: $i) { databaseId } }', { i: { firstName: 'Gone', lastName: 'Away' } })).data.createPerson.databaseId;
    await photoFor(gone);
    await w.app.db.person.update({ where: { ID: gone }, data: { AccountLevel: 'Disabled' } });
    expect((await q(PHOTOS, { id: gone })).data.person.photos).toHaveLength(1);
    expect((await q(PHOTOS, { id: gone }, user.token)).data.person).toEqual({ primaryPhoto: null, photos: [] });
  });

  it('sets the primary photo and captions as Staff or the person; others are refused and nothing changes', async () => {
    const [first, second] = (await w.app.db.media.findMany({ where: { ContextID: pupil.person_id }, orderBy: { ID: 'asc' } })).map((m) => m.ID);
    const SET = 'mutation($p: ID!, $m: ID) { setPrimaryPhoto(person: $p, media: $m) { databaseId primaryPhoto { databaseId } } }';
    expect((await q(SET, { p: pupil.person_id, m: second }, null)).errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await q(SET, { p: pupil.person_id, m: second }, user.token)).errors![0].extensions.code).toBe('FORBIDDEN');
    const own = await q(SET, { p: pupil.person_id, m: second }, pupil.token);
    expect(own.data.setPrimaryPhoto).toEqual({ databaseId: pupil.person_id, primaryPhoto: { databaseId: second } });
    // Someone else's photo cannot be one's primary photo.
    const mine = await photoFor(user.person_id);
    expect((await q(SET, { p: pupil.person_id, m: mine })).errors![0]).toMatchObject({ message: "The primary photo must be one of the person's own photos", extensions: { code: 'BAD_USER_INPUT' } });
    expect((await w.app.db.person.findUniqueOrThrow({ where: { ID: pupil.person_id } })).PrimaryPhotoID).toBe(second);
    expect((await q(SET, { p: pupil.person_id, m: null })).data.setPrimaryPhoto.primaryPhoto).toBeNull();
    expect((await q(SET, { p: pupil.person_id, m: first })).data.setPrimaryPhoto.primaryPhoto).toEqual({ databaseId: first });

    const CAPTION = 'mutation($id: ID!, $c: String) { updateMediaCaption(id: $id, caption: $c) { databaseId caption } }';
    expect((await q(CAPTION, { id: first, c: 'x' }, user.token)).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await q(CAPTION, { id: first, c: 'y'.repeat(256) })).errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await q(CAPTION, { id: first, c: 'At the lake' }, pupil.token)).data.updateMediaCaption).toEqual({ databaseId: first, caption: 'At the lake' });
    expect((await q(CAPTION, { id: 999999, c: 'x' })).errors![0]).toMatchObject({ message: 'Media not found', extensions: { code: 'NOT_FOUND' } });
  });

  it('deletes a media: the row, and the primary photo passes to the newest other photo', async () => {
    const [first, second] = (await w.app.db.media.findMany({ where: { ContextID: pupil.person_id }, orderBy: { ID: 'asc' } })).map((m) => m.ID);
    const DELETE = 'mutation($id: ID!) { deleteMedia(id: $id) { databaseId caption } }';
    expect((await q(DELETE, { id: first }, user.token)).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await q(DELETE, { id: first }, pupil.token)).data.deleteMedia).toEqual({ databaseId: first, caption: 'At the lake' });
    expect(await w.app.db.media.findUnique({ where: { ID: first } })).toBeNull();
    expect((await q(PHOTOS, { id: pupil.person_id })).data.person.primaryPhoto).toEqual({ databaseId: second });
  });
});

describe('batching', () => {
  it('loads a page of people with photos and primary photos in the same calls for 2 people as for 8', async () => {
    for (let i = 0; i < 8; i++) {
      const p = (await q('mutation($i: PersonInput!) { createPerson(input: $i) { databaseId } }', { i: { firstName: `Photo${i}`, lastName: 'Yy' } })).data.createPerson;
      await photoFor(p.databaseId);
      await photoFor(p.databaseId);
    }
    const { db: counting, calls } = callRecordingDb(w.app);
    const yoga = createYogaServer(servicesOn(w.app, counting), w.app.log);
    const run = async (first: number) => {
      calls.length = 0;
      const res = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Token ${staff.token}` },
        body: JSON.stringify({ query: 'query($n: Int) { people(q: "last:Yy", first: $n, sort: "FirstName") { nodes { firstName primaryPhoto { width } photos { databaseId } } } }', variables: { n: first } }),
      });
      const body = (await res.json()) as { data: any; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return { nodes: body.data.people.nodes, calls: [...calls].sort() };
    };
    const small = await run(2);
    const large = await run(8);
    expect(large.nodes).toHaveLength(8);
    expect(large.nodes[7]).toMatchObject({ firstName: 'Photo7', primaryPhoto: { width: 64 }, photos: [{}, {}] });
    expect(large.calls).toEqual(small.calls);
    expect(large.calls.filter((c) => c.startsWith('media.'))).toEqual(['media.findMany', 'media.findMany']);
  });
});
