// Slate's `GET /<prefix>/create` for every kind (the empty form a JSON client gets: the record's
// defaults, `success: false`, after the write check; nothing stored) and `/pages?AuthorID=`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchool, type School } from './conventions-fixture.ts';

let s: School;
beforeAll(async () => {
  s = await createSchool();
}, 60_000);
afterAll(() => s.w.stop());

const get = (path: string, token: string | null = s.staff) => s.w.campus('GET', path, { token });

const stamp = { ID: null, Created: 'CURRENT_TIMESTAMP', CreatorID: null };
const versioned = { ...stamp, RevisionID: null, Modified: null, ModifierID: null };
const content = { ContextClass: null, ContextID: null, Title: null, Handle: null, AuthorID: null, Status: 'Live', Published: null, Visibility: 'Public', LayoutClass: null, LayoutConfig: null };

/** Every kind's empty form, as Slate's classes declare their fields and defaults. */
const FORMS: Record<string, Record<string, unknown>> = {
  people: {
    ...versioned,
    Class: 'Emergence\\People\\Person',
    FirstName: null,
    LastName: null,
    MiddleName: null,
    Gender: null,
    BirthDate: null,
    Location: null,
    About: null,
    PrimaryPhotoID: null,
    PrimaryEmailID: null,
    PrimaryPhoneID: null,
    PrimaryPostalID: null,
    Username: null,
    AccountLevel: null,
  },
  sections: { ...versioned, Class: 'Slate\\Courses\\Section', CourseID: null, Title: null, Handle: null, Code: null, Status: 'Live', Notes: null, StudentsCapacity: null, TermID: null, ScheduleID: null, LocationID: null },
  courses: { ...versioned, Class: 'Slate\\Courses\\Course', Title: null, Handle: null, Code: null, Status: 'Live', Description: null, Prerequisites: null, DepartmentID: null },
  blog: { ...versioned, Class: 'Emergence\\CMS\\BlogPost', ...content },
  pages: { ...versioned, Class: 'Emergence\\CMS\\Page', ...content },
  // Groups are not versioned in Slate.
  groups: { ...stamp, Class: 'Emergence\\People\\Groups\\Group', Name: null, Handle: null, ParentID: null, Founded: null, Data: null, Status: 'Live' },
  locations: { ...versioned, Class: 'Emergence\\Locations\\Location', Title: null, Handle: null, Status: 'Live', Description: null, ParentID: null },
  terms: { ...versioned, Class: 'Slate\\Term', Title: null, Handle: null, Status: 'Live', StarDate: null, EndDate: null, ParentID: null },
};

async function counts() {
  const db = s.w.app.db;
  return Promise.all([db.person.count(), db.section.count(), db.course.count(), db.content.count(), db.group.count(), db.location.count(), db.term.count()]);
}

describe('GET /<prefix>/create', () => {
  it.each(Object.keys(FORMS))('/%s/create answers the empty record with its defaults and success false, storing nothing', async (prefix) => {
    const before = await counts();
    const res = await get(`/${prefix}/create`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, data: FORMS[prefix] });
    // Field order is Slate's: the stamp fields, then the class's own.
    expect(Object.keys(res.json.data)).toEqual(Object.keys({ ID: 0, Class: 0, ...FORMS[prefix] }));
    expect(await counts()).toEqual(before);
  });

  it.each(Object.keys(FORMS))('/%s/create checks write access first: 401 anonymous, 403 below the level', async (prefix) => {
    expect(await get(`/${prefix}/create`, null)).toMatchObject({ status: 401, json: { success: false, loginRequired: true } });
    const user = await get(`/${prefix}/create`, s.other.token);
    // Any User may write a blog post; every other kind needs Staff.
    if (prefix === 'blog') expect(user).toMatchObject({ status: 200, json: { success: false, data: FORMS.blog } });
    else expect(user).toMatchObject({ status: 403, json: { success: false, message: 'You do not have authorization to access this resource' } });
  });

  it('is the form even when a record is titled "Create" (that record is reached by ID)', async () => {
    // "create" is refused as a given handle; one generated from the title is not checked (as Slate's HandleBehavior).
    const refused = await s.w.campus('POST', '/locations/create', { token: s.staff, fields: { Title: 'Create', Handle: 'create' } });
    expect(refused.json).toMatchObject({ success: false, validationErrors: { Handle: 'Handle can only contain letters, numbers, hyphens, and underscores' } });
    const res = await s.w.campus('POST', '/locations/create', { token: s.staff, fields: { Title: 'Create' } });
    expect(res.json.success).toBe(true);
    expect((await get('/locations/create')).json).toEqual({ success: false, data: FORMS.locations });
    expect((await get(`/locations/${res.json.data.ID}`)).json.data).toMatchObject({ Title: 'Create', Handle: res.json.data.Handle });
  });
});

describe('/pages?AuthorID=', () => {
  it('lists one author\'s pages; anything but an ID matches none; 0 is no filter', async () => {
    const make = async (fields: Record<string, unknown>) => {
      const res = await s.w.campus('POST', '/pages/create', { token: s.staff, fields });
      expect(res.json.success).toBe(true);
      return res.json.data;
    };
    const staffPage = await make({ Title: 'Staff handbook' });
    await make({ Title: 'Teacher page', AuthorID: s.ids.teacher });
    await make({ Title: 'Teacher notes', AuthorID: s.ids.teacher });
    const titles = async (path: string, token: string | null = null) => (await get(path, token)).json.data.map((p: { Title: string }) => p.Title).sort();

    const res = await get(`/pages?AuthorID=${s.ids.teacher}`, null);
    expect(res.status).toBe(200);
    expect(res.json.conditions).toEqual({ AuthorID: s.ids.teacher });
    expect(res.json.total).toBe(2);
    expect(await titles(`/pages?AuthorID=${s.ids.teacher}`)).toEqual(['Teacher notes', 'Teacher page']);
    // The creator is the author when none is given.
    expect(await titles(`/pages?AuthorID=${staffPage.AuthorID}`)).toEqual(['Staff handbook']);
    expect(await titles(`/pages?AuthorID=${s.student.id}`)).toEqual([]);
    expect((await get('/pages?AuthorID=abc')).json.total).toBe(0);
    expect((await get('/pages?AuthorID=0')).json.total).toBe(3);
    // Pages and blog posts share a table; each listing keeps to its own class.
    expect((await get(`/blog?AuthorID=${s.ids.teacher}`)).json.total).toBe(0);
    expect(await titles(`/blog?AuthorID=${s.student.id}`)).toEqual(['Student post']);
  });
});
