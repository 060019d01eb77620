// `?include=` applies the read rule of the related record's own route: what `/courses/<id>`
// refuses a caller, `/sections/<id>?include=Course` does not show them (null in place of one
// record, left out of a list), as GraphQL does (test/graphql/campus-authorization.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let user: string;
let hiddenCourse: { ID: number };
let liveCourse: { ID: number };
let ofHidden: { ID: number };
let liveSection: { ID: number };
let hiddenSection: { ID: number };
let member: { ID: number };

const create = async (prefix: string, fields: Record<string, unknown>) => {
  const res = await w.campus('POST', `/${prefix}/create`, { token: staff, fields });
  expect(res.json.success, res.text).toBe(true);
  return res.json.data;
};
const get = (path: string, token: string | null = null) => w.campus('GET', path, { token });

beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
  hiddenCourse = await create('courses', { Title: 'Secret', Code: 'SEC', Status: 'Hidden' });
  liveCourse = await create('courses', { Title: 'Open', Code: 'OPN' });
  ofHidden = await create('sections', { CourseID: hiddenCourse.ID, Title: 'Secret A' });
  liveSection = await create('sections', { CourseID: liveCourse.ID, Title: 'Open A' });
  hiddenSection = await create('sections', { CourseID: liveCourse.ID, Title: 'Open B', Status: 'Hidden' });
  const chess = await create('groups', { Name: 'Chess' });
  member = await create('people', { FirstName: 'Ada', LastName: 'Lovelace', groupIDs: chess.Handle });
});

describe('?include= and the read rule', () => {
  it('shows a hidden course as null to those its own route refuses, and in full to Staff', async () => {
    expect((await get(`/courses/${hiddenCourse.ID}`)).status).toBe(401);
    expect((await get(`/courses/${hiddenCourse.ID}`, user)).status).toBe(403);
    const anonymous = await get(`/sections/${ofHidden.ID}?include=Course`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.json.data).toMatchObject({ ID: ofHidden.ID, Course: null });
    expect((await get(`/sections/${ofHidden.ID}?include=Course`, user)).json.data.Course).toBeNull();
    expect((await get(`/sections/${ofHidden.ID}?include=Course`, staff)).json.data.Course).toMatchObject({ ID: hiddenCourse.ID, Title: 'Secret' });
    // The same in a browse: each section's course by the same rule.
    const browse = await get('/sections?include=Course');
    const courseOf = new Map(browse.json.data.map((s: { ID: number; Course: { Title: string } | null }) => [s.ID, s.Course?.Title ?? null]));
    expect([courseOf.get(ofHidden.ID), courseOf.get(liveSection.ID)]).toEqual([null, 'Open']);
  });

  it('leaves hidden records out of an included list, nested levels included', async () => {
    const titles = (res: { json: { data: { Sections: Array<{ Title: string }> } } }) => res.json.data.Sections.map((s) => s.Title).sort();
    expect((await get(`/sections/${hiddenSection.ID}`)).status).toBe(401);
    expect(titles(await get(`/courses/${liveCourse.ID}?include=Sections`))).toEqual(['Open A']);
    expect(titles(await get(`/courses/${liveCourse.ID}?include=Sections`, user))).toEqual(['Open A']);
    expect(titles(await get(`/courses/${liveCourse.ID}?include=Sections`, staff))).toEqual(['Open A', 'Open B']);
    // Through a readable record to a hidden one: Open A's course is readable, Secret A's is not.
    const nested = await get(`/courses/${liveCourse.ID}?include=Sections.Course`);
    expect(nested.json.data.Sections.map((s: { Course: { Title: string } }) => s.Course.Title)).toEqual(['Open']);
  });

  it('shows a person\'s groups only to callers who may read groups (logged in)', async () => {
    expect((await get('/groups/chess')).status).toBe(401);
    expect((await get(`/people/${member.ID}?include=Groups`)).json.data.Groups).toEqual([]);
    expect((await get(`/people/${member.ID}?include=Groups`, user)).json.data.Groups.map((g: { Name: string }) => g.Name)).toEqual(['Chess']);
  });
});
