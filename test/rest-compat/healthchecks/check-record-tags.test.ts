// Links between checks and campus records set from a Healthchecks script: the tag convention
// `campus:<kind>/<identifier>` through /api/v1-3/checks/, with the REST shapes unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let course: { ID: number; Handle: string; Code: string };
let section: { ID: number; Handle: string; Code: string };
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  course = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Mathematics', Code: 'MATH' } })).json.data;
  section = (await w.campus('POST', '/sections/create', { token: staff, fields: { CourseID: course.ID, Title: 'Algebra I' } })).json.data;
});

/** The records a check is linked to, as stored: "Kind:ID" in link order. */
async function linksOf(uuid: string) {
  const check = await w.app.db.check.findUniqueOrThrow({ where: { code: uuid }, select: { recordLinks: { orderBy: { id: 'asc' } } } });
  return check.recordLinks.map((l) => `${l.kind}:${l.sectionId ?? l.courseId ?? l.personId ?? l.termId ?? l.groupId ?? l.locationId ?? l.contentId}`);
}

describe('the campus:<kind>/<identifier> tag convention over the Management API', () => {
  it('links a check created with a record tag, and answers exactly what a plain check gets', async () => {
    expect(section.Code).toBe('MATH-001');
    const plain = await w.api('POST', '/api/v3/checks/', { body: { name: 'plain', tags: 'prod nightly' } });
    const linked = await w.api('POST', '/api/v3/checks/', { body: { name: 'roster sync', tags: 'prod campus:section/MATH-001' } });
    expect(linked.status).toBe(201);
    expect(Object.keys(linked.json)).toEqual(Object.keys(plain.json));
    expect(linked.json.tags).toBe('prod campus:section/MATH-001');
    expect(await linksOf(linked.json.uuid)).toEqual([`Section:${section.ID}`]);
    const read = await w.api('GET', `/api/v3/checks/${linked.json.uuid}`);
    expect(read.json.tags).toBe('prod campus:section/MATH-001');
    expect(Object.keys(read.json)).toEqual(Object.keys((await w.api('GET', `/api/v3/checks/${plain.json.uuid}`)).json));
  });

  it('resolves identifiers as Slate does: code, handle or ID, on API v1, v2 and v3', async () => {
    const tags = `campus:course/${course.Handle} campus:section/${section.Handle} campus:course/${course.ID}`;
    for (const version of [1, 2, 3]) {
      const res = await w.api('POST', `/api/v${version}/checks/`, { body: { name: `v${version}`, tags } });
      expect(res.status).toBe(201);
      expect(await linksOf(res.json.uuid)).toEqual([`Course:${course.ID}`, `Section:${section.ID}`, `Course:${course.ID}`]);
    }
  });

  it('follows tag updates: a removed tag unlinks, an added one links, other fields leave links alone', async () => {
    const { json } = await w.api('POST', '/api/v3/checks/', { body: { name: 'export', tags: 'campus:course/MATH' } });
    await w.api('POST', `/api/v3/checks/${json.uuid}`, { body: { tags: 'campus:section/MATH-001 grades' } });
    expect(await linksOf(json.uuid)).toEqual([`Section:${section.ID}`]);
    await w.api('POST', `/api/v3/checks/${json.uuid}`, { body: { timeout: 120 } });
    expect(await linksOf(json.uuid)).toEqual([`Section:${section.ID}`]);
    const cleared = await w.api('POST', `/api/v3/checks/${json.uuid}`, { body: { tags: '' } });
    expect(cleared.json.tags).toBe('');
    expect(await linksOf(json.uuid)).toEqual([]);
  });

  it('keeps a tag naming no record as an ordinary tag, and links it when tags are sent again after the record exists', async () => {
    const { status, json } = await w.api('POST', '/api/v3/checks/', { body: { name: 'import', tags: 'campus:term/fall_2026 campus:room/12' } });
    expect(status).toBe(201);
    expect(json.tags).toBe('campus:term/fall_2026 campus:room/12');
    expect(await linksOf(json.uuid)).toEqual([]);
    const term = (await w.campus('POST', '/terms/create', { token: staff, fields: { Title: 'Fall 2026' } })).json.data;
    expect(term.Handle).toBe('fall_2026');
    // Healthchecks scripts upsert with their full settings on every run: the same tags again.
    const again = await w.api('POST', '/api/v3/checks/', { body: { name: 'import', tags: 'campus:term/fall_2026 campus:room/12', unique: ['name'] } });
    expect(again.status).toBe(200);
    expect(await linksOf(json.uuid)).toEqual([`Term:${term.ID}`]);
  });

  it('keeps a link when the record is renamed, and drops it (not the tag) when the record is deleted', async () => {
    const other = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Biology', Code: 'BIO' } })).json.data;
    const { json } = await w.api('POST', '/api/v3/checks/', { body: { name: 'bio sync', tags: 'campus:course/BIO' } });
    await w.campus('POST', `/courses/${other.Handle}/edit`, { token: staff, fields: { Code: 'BIOL' } });
    await w.api('POST', `/api/v3/checks/${json.uuid}`, { body: { tags: 'campus:course/BIO' } });
    expect(await linksOf(json.uuid)).toEqual([`Course:${other.ID}`]);
    const deleted = await w.campus('POST', `/courses/${other.Handle}/delete`, { token: staff });
    expect(deleted.status).toBe(200);
    expect(await linksOf(json.uuid)).toEqual([]);
    expect((await w.api('GET', `/api/v3/checks/${json.uuid}`)).json.tags).toBe('campus:course/BIO');
  });

  it('refuses a read-only key and a too long tag list as before, linking nothing', async () => {
    const ro = await w.api('POST', '/api/v3/checks/', { key: w.alice.api_key_readonly, body: { tags: 'campus:course/MATH' } });
    expect(ro.status).toBe(401);
    const long = await w.api('POST', '/api/v3/checks/', { body: { tags: `campus:course/MATH ${'x'.repeat(500)}` } });
    expect(long.status).toBe(400);
    expect(await w.app.db.checkRecordLink.count({ where: { courseId: course.ID, check: { tags: { contains: 'x'.repeat(500) } } } })).toBe(0);
  });

  it('deletes a check with its links', async () => {
    const { json } = await w.api('POST', '/api/v3/checks/', { body: { tags: 'campus:course/MATH' } });
    const id = (await w.app.db.check.findUniqueOrThrow({ where: { code: json.uuid } })).id;
    expect(await w.app.db.checkRecordLink.count({ where: { checkId: id } })).toBe(1);
    expect((await w.api('DELETE', `/api/v3/checks/${json.uuid}`)).status).toBe(200);
    expect(await w.app.db.checkRecordLink.count({ where: { checkId: id } })).toBe(0);
  });
});
