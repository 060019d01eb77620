// Malformed and oversized input on the campus routes: always a clear 4xx (or Slate's 200
// validation reply), never a 5xx, a crash or a stall, and nothing stored or changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let staff: string;
let user: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  user = (await w.campusToken('User')).token;
});

const create = (prefix: string, fields: Record<string, unknown>, token: string | null = staff) => w.campus('POST', `/${prefix}/create`, { token, fields, json: true });

/** A request with any body and headers (the helper only sends well-formed forms and JSON). */
async function raw(method: string, path: string, body: string | Uint8Array<ArrayBuffer> | undefined, headers: Record<string, string> = {}, token: string | null = staff) {
  const res = await fetch(w.url + path, { method, headers: { ...headers, ...(token ? { Authorization: `Token ${token}` } : {}) }, body });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}
const json = { 'Content-Type': 'application/json' };
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** `[[...]]` with `depth` levels of arrays. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Everything the campus tables hold, to prove a refused request changed nothing. */
async function snapshot() {
  const db = w.app.db;
  return {
    content: await db.content.findMany({ orderBy: { ID: 'asc' } }),
    courses: await db.course.findMany({ orderBy: { ID: 'asc' } }),
    sections: await db.section.findMany({ orderBy: { ID: 'asc' } }),
    people: await db.person.count(),
    sessions: await db.campusSession.count(),
    tags: await db.tag.count(),
    contacts: await db.contactPoint.count(),
    comments: await db.comment.count(),
    memberships: await db.groupMember.count(),
  };
}

describe('deeply nested input', () => {
  it('refuses a blog post whose JSON nests 5,000 deep with 400, stores nothing, and keeps serving', async () => {
    const before = await snapshot();
    const res = await raw('POST', '/blog/create', `{"Title": ${nested(5000)}}`, json, user);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Request is nested too deeply: at most 64 levels' });
    expect(await snapshot()).toEqual(before);
    // The process is still up and answering.
    const after = await w.campus('GET', '/blog');
    expect(after.status).toBe(200);
    expect(after.json.success).toBe(true);
  });

  it('accepts 64 levels (an ordinary validation reply) and refuses 65', async () => {
    const at = await raw('POST', '/blog/create', `{"Title": ${nested(63)}}`, json, user);
    expect(at.status).toBe(200);
    expect(at.json).toMatchObject({ success: false, validationErrors: { Title: 'Title is invalid.' } });
    const past = await raw('POST', '/blog/create', `{"Title": ${nested(64)}}`, json, user);
    expect(past.status).toBe(400);
    expect(past.json.message).toBe('Request is nested too deeply: at most 64 levels');
  });

  it('does not count brackets inside strings', async () => {
    const res = await raw('POST', '/courses/create', JSON.stringify({ Title: '[{'.repeat(150), Code: 'BRK' }), json);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: false, validationErrors: { Title: 'Title is too long.' } });
  });

  it('refuses an edit nested too deeply and leaves the record as it was', async () => {
    const post = (await create('blog', { Title: 'Mine' }, user)).json.data;
    const before = await snapshot();
    const res = await raw('POST', `/blog/${post.ID}/edit`, `{"Title": "x", "Status": ${nested(3000)}}`, json, user);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Request is nested too deeply: at most 64 levels' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses form keys nested past 64 levels (a[b][c]...)', async () => {
    const before = await snapshot();
    const res = await raw('POST', '/courses/create', `Title=T&Code=DEEP&x${'[a]'.repeat(64)}=1`, form);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Request is nested too deeply: at most 64 levels' });
    expect(await snapshot()).toEqual(before);
    // 63 brackets (64 levels) is an ordinary, ignored key.
    const ok = await raw('POST', '/courses/create', `Title=T&Code=DEEP&x${'[a]'.repeat(63)}=1`, form);
    expect(ok.json).toMatchObject({ success: true, data: { Code: 'DEEP' } });
  });

  it("echoes only the kind's own fields in a validation reply, never other keys or the password", async () => {
    const res = await create('people', { FirstName: '', LastName: 'Echo', Username: 'echo1', Password: 'secret12', Junk: 'x'.repeat(10_000), Email: 'e@example.org' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: false,
      data: { FirstName: '', LastName: 'Echo', Username: 'echo1', Email: 'e@example.org' },
      validationErrors: { FirstName: 'First name is required.' },
      message: 'First name is required.',
    });
  });
});

describe('body size', () => {
  it('answers 413 to a create over 1 MB (form or JSON) and stores nothing', async () => {
    const before = await snapshot();
    const big = 'a'.repeat(1024 * 1024);
    const viaForm = await raw('POST', '/courses/create', `Code=BIG&Description=${big}`, form);
    expect(viaForm.status).toBe(413);
    expect(viaForm.json).toEqual({ success: false, message: 'Request body is too large: at most 1 MB' });
    const viaJson = await raw('POST', '/courses/create', JSON.stringify({ Title: 'Big', Code: 'BIG', Description: big }), json);
    expect(viaJson.status).toBe(413);
    expect(viaJson.json).toEqual({ success: false, message: 'Request body is too large: at most 1 MB' });
    expect(await snapshot()).toEqual(before);
    // A body just under the limit is read.
    const fits = await raw('POST', '/courses/create', JSON.stringify({ Title: 'Fits', Code: 'FITS', Description: 'a'.repeat(1000 * 1000) }), json);
    expect(fits.json).toMatchObject({ success: true, data: { Code: 'FITS' } });
  });

  it('answers 413 to a chunked body (no Content-Length) once it passes 1 MB, and stores nothing', async () => {
    const before = await snapshot();
    const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('Title=Chunked&Code=CHUNK&Description='));
        if (sent++ < 32) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${w.url}/courses/create`, { method: 'POST', headers: { ...form, Authorization: `Token ${staff}` }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, message: 'Request body is too large: at most 1 MB' });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 413 to an edit, a save and a comment over 1 MB and changes nothing', async () => {
    const course = (await create('courses', { Title: 'Sized', Code: 'SIZED' })).json.data;
    const before = await snapshot();
    const big = JSON.stringify({ Description: 'b'.repeat(1024 * 1024) });
    for (const path of [`/courses/${course.ID}/edit`, '/courses/save', `/courses/${course.ID}/comment`]) {
      const res = await raw('POST', path, big, json);
      expect(res.status, path).toBe(413);
      expect(res.json).toEqual({ success: false, message: 'Request body is too large: at most 1 MB' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 413 to /login with a 2 MB field and opens no session', async () => {
    const before = await snapshot();
    const res = await raw('POST', '/login', `_LOGIN[username]=${'u'.repeat(2 * 1024 * 1024)}&_LOGIN[password]=x`, form, null);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ success: false, message: 'Request body is too large: at most 1 MB' });
    expect(await snapshot()).toEqual(before);
  });
});

describe('batch save and destroy', () => {
  it('refuses save items that are not objects with 400 and saves none of the batch', async () => {
    const before = await snapshot();
    const res = await w.campus('POST', '/courses/save', { token: staff, json: true, fields: { data: [null, 1, 'x', []] } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Save expects "data" field as array of record deltas: item 0 is not an object' });
    const mixed = await w.campus('POST', '/courses/save', { token: staff, json: true, fields: { data: [{ Title: 'Good', Code: 'GOOD' }, []] } });
    expect(mixed.status).toBe(400);
    expect(mixed.json).toEqual({ success: false, message: 'Save expects "data" field as array of record deltas: item 1 is not an object' });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 when data is missing or not an array (Slate)', async () => {
    const save = await w.campus('POST', '/courses/save', { token: staff, json: true, fields: { data: 'x' } });
    expect(save.status).toBe(400);
    expect(save.json).toEqual({ success: false, message: 'Save expects "data" field as array of record deltas' });
    const destroy = await w.campus('POST', '/courses/destroy', { token: staff, json: true, fields: {} });
    expect(destroy.status).toBe(400);
    expect(destroy.json).toEqual({ success: false, message: 'Handler expects "data" field as array' });
  });

  it('refuses batches over 1,000 items with 400 before touching any', async () => {
    const before = await snapshot();
    const items = Array.from({ length: 1001 }, (_, i) => ({ Title: `T${i}`, Code: `C${i}` }));
    const save = await w.campus('POST', '/courses/save', { token: staff, json: true, fields: { data: items } });
    expect(save.status).toBe(400);
    expect(save.json).toEqual({ success: false, message: 'Too many items in "data": at most 1000' });
    const destroy = await w.campus('POST', '/courses/destroy', { token: staff, json: true, fields: { data: Array.from({ length: 1001 }, (_, i) => i + 1) } });
    expect(destroy.status).toBe(400);
    expect(destroy.json).toEqual({ success: false, message: 'Too many items in "data": at most 1000' });
    expect(await snapshot()).toEqual(before);
  });

  it('reports destroy items with out-of-range or non-scalar IDs per item and deletes nothing', async () => {
    const course = (await create('courses', { Title: 'Keep', Code: 'KEEP' })).json.data;
    const before = await snapshot();
    const res = await w.campus('POST', '/courses/destroy', { token: staff, json: true, fields: { data: [1e20, { ID: 1e30 }, { ID: {} }, [course.ID], null] } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: false,
      data: [],
      failed: [
        { record: 1e20, errors: 'ID not found' },
        { record: { ID: 1e30 }, errors: 'ID not found' },
        { record: { ID: {} }, errors: 'ID missing' },
        { record: [course.ID], errors: 'ID missing' },
        { record: null, errors: 'ID missing' },
      ],
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe('browse paging (Slate: non-digits ignored, huge values saturate)', () => {
  beforeAll(async () => {
    for (const code of ['PG1', 'PG2', 'PG3']) await create('courses', { Title: `Paging ${code}`, Code: code });
  });

  it('serves a limit past the integer range as the largest page (1,000 records)', async () => {
    const all = await w.campus('GET', '/courses');
    const res = await w.campus('GET', '/courses?limit=99999999999999999999');
    expect(res.status).toBe(200);
    // The offset is echoed as given (Slate: false when absent).
    expect(res.json).toMatchObject({ success: true, total: all.json.total, limit: 1000, offset: false });
    expect(res.json.data).toHaveLength(all.json.total);
  });

  it('gives an empty page for an offset past the range, with the right total', async () => {
    const res = await w.campus('GET', '/courses?limit=2&offset=99999999999999999999');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: [], limit: 2, offset: 2147483647 });
    expect(res.json.total).toBeGreaterThanOrEqual(3);
  });

  it.each(['-1', 'abc', '1.5', '1e3', ''])('ignores limit=%s as Slate does', async (limit) => {
    const res = await w.campus('GET', `/courses?limit=${limit}&offset=${limit}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, limit: false, offset: false });
  });
});

describe('IDs and references out of range', () => {
  it.each([1e30, -1, 1.5, 2 ** 31, '99999999999999999999'])('AuthorID %s is a field error, nothing stored', async (value) => {
    const before = await snapshot();
    const res = await create('blog', { Title: 'Ranged', AuthorID: value }, user);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, data: { Title: 'Ranged', AuthorID: value }, validationErrors: { AuthorID: 'Author ID is invalid.' }, message: 'Author ID is invalid.' });
    expect(await snapshot()).toEqual(before);
  });

  it.each([1e30, -1, 1.5, 2 ** 31])('CourseID %s is a field error, nothing stored', async (value) => {
    const before = await snapshot();
    const res = await create('sections', { CourseID: value });
    expect(res.json).toEqual({ success: false, data: { CourseID: value }, validationErrors: { Course: 'Course ID is invalid.' }, message: 'Course ID is invalid.' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses out-of-range numbers on edit and on other int fields, changing nothing', async () => {
    const course = (await create('courses', { Title: 'Ref', Code: 'REF' })).json.data;
    const section = (await create('sections', { CourseID: course.ID })).json.data;
    const before = await snapshot();
    const edit = await w.campus('POST', `/sections/${section.ID}/edit`, { token: staff, json: true, fields: { CourseID: 1e30, StudentsCapacity: 2 ** 53 } });
    expect(edit.json).toMatchObject({ success: false, validationErrors: { Course: 'Course ID is invalid.', StudentsCapacity: 'Students Capacity is invalid.' } });
    const ctx = await create('blog', { Title: 'Ctx', ContextClass: 'Slate\\Courses\\Course', ContextID: 1e30 });
    expect(ctx.json.validationErrors).toEqual({ ContextID: 'Context ID is invalid.' });
    const groups = await create('people', { FirstName: 'Gus', LastName: 'Groups', groupIDs: ['99999999999999999999'] });
    expect(groups.json.validationErrors).toEqual({ groupIDs: 'Group 99999999999999999999 does not exist.' });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for record paths with IDs past the range', async () => {
    const huge = '99999999999999999999';
    for (const [method, path] of [
      ['GET', `/courses/${huge}`],
      ['POST', `/courses/${huge}/edit`],
      ['GET', `/courses/${huge}/delete`],
      ['POST', `/courses/${huge}/delete`],
      ['POST', `/courses/${huge}/comment`],
    ] as const) {
      const res = await w.campus(method, path, { token: staff, fields: method === 'POST' ? { Message: 'hi', Title: 'x' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({ success: false, message: 'Record not found' });
    }
  });

  it('answers 404 to section participants with out-of-range or oversized identifiers, echoing at most 100 characters', async () => {
    const before = await snapshot();
    const huge = await w.campus('POST', '/section-participants/create', { token: staff, json: true, fields: { CourseSectionID: 1e30, PersonID: 1, Role: 'Student' } });
    expect(huge.status).toBe(404);
    expect(huge.json).toEqual({ success: false, message: 'course section not found: 1e+30' });
    const long = await w.campus('POST', '/section-participants/create', { token: staff, json: true, fields: { CourseSectionID: 's'.repeat(100_000), PersonID: 1, Role: 'Student' } });
    expect(long.status).toBe(404);
    expect(long.json).toEqual({ success: false, message: `course section not found: ${'s'.repeat(100)}…` });
    expect(await w.app.db.sectionParticipant.count()).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 to section participants whose identifiers are nested form fields or JSON objects, and stores nothing', async () => {
    const before = await snapshot();
    for (const body of ['CourseSectionID[a][b]=', 'PersonID[]=1&CourseSectionID=1', 'Role[x]=Student&CourseSectionID=1&PersonID=1']) {
      const res = await raw('POST', '/section-participants/create', body, { ...form, Accept: 'application/json' });
      expect(res.status, body).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.message).toMatch(/^(CourseSectionID|PersonID|Role) must be a single value$/);
    }
    const object = await w.campus('POST', '/section-participants/create', { token: staff, json: true, fields: { CourseSectionID: { ID: 1 }, PersonID: 1, Role: 'Student' } });
    expect(object.status).toBe(400);
    expect(object.json).toEqual({ success: false, message: 'CourseSectionID must be a single value' });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['Published', 99999999999999999999],
    ['Published', '99999999999999999999'],
    ['Published', '10000-01-01'],
  ])('timestamps past year 9999 are invalid (%s: %s)', async (field, value) => {
    const res = await create('blog', { Title: 'When', [field]: value });
    expect(res.json).toMatchObject({ success: false, validationErrors: { [field]: `${field} is invalid.` } });
  });

  it('dates past year 9999 are invalid', async () => {
    const res = await create('people', { FirstName: 'Old', LastName: 'Timer', BirthDate: '99999999999999999999' });
    expect(res.json).toMatchObject({ success: false, validationErrors: { BirthDate: 'Birth Date is invalid.' } });
  });
});

describe('search bounds', () => {
  beforeAll(async () => {
    await create('courses', { Title: 'Search Algebra', Code: 'SRCH1' });
  });

  it('refuses 3,000 words at once with 400, without holding the server', async () => {
    const q = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`).join('+');
    const started = performance.now();
    const res = await w.campus('GET', `/courses?q=${q}`);
    expect(performance.now() - started).toBeLessThan(500);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Search text is too long: at most 200 characters' });
  });

  it('allows 200 characters and 10 distinct words; refuses 201 characters and 11 words', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `a${i}`).join(' ');
    expect((await w.campus('GET', `/courses?q=${encodeURIComponent(ten)}`)).json).toMatchObject({ success: true, total: 0 });
    const eleven = `${ten} a10`;
    const tooMany = await w.campus('GET', `/courses?q=${encodeURIComponent(eleven)}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({ success: false, message: 'Search has too many words: at most 10' });
    expect((await w.campus('GET', `/courses?q=${'x'.repeat(200)}`)).status).toBe(200);
    const long = await w.campus('GET', `/courses?q=${'x'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.json).toEqual({ success: false, message: 'Search text is too long: at most 200 characters' });
  });

  it('counts repeated words once (ASCII case ignored, as LIKE does)', async () => {
    const q = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'algebra' : 'ALGEBRA')).join(' ');
    const res = await w.campus('GET', `/courses?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(res.json.data.map((c: { Code: string }) => c.Code)).toEqual(['SRCH1']);
    expect(res.json.query).toBe(q);
  });
});

describe('malformed bodies and values', () => {
  it.each([
    ['invalid JSON', '{"Title":', json, 400, 'Request body is not valid JSON'],
    ['a JSON array', '[{"Title":"T","Code":"ARR"}]', json, 400, 'Request body must be a JSON object'],
    ['JSON null', 'null', json, 400, 'Request body must be a JSON object'],
    ['a JSON string', '"Title"', json, 400, 'Request body must be a JSON object'],
    ['non-UTF-8 JSON', Buffer.concat([Buffer.from('{"Title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","Code":"BIN"}')]), json, 400, 'Request is not valid UTF-8'],
    ['non-UTF-8 form bytes', Buffer.concat([Buffer.from('Code=BIN&Title='), Buffer.from([0xc3, 0x28])]), form, 400, 'Request is not valid UTF-8'],
    ['percent-encoded non-UTF-8', 'Code=BIN&Title=%FF', form, 400, 'Request is not valid UTF-8'],
    ['text/plain', 'Title=T&Code=TXT', { 'Content-Type': 'text/plain' }, 415, 'Unsupported Content-Type "text/plain": send application/x-www-form-urlencoded or application/json'],
    ['multipart', '--b\r\nContent-Disposition: form-data; name="Title"\r\n\r\nM\r\n--b--\r\n', { 'Content-Type': 'multipart/form-data; boundary=b' }, 415, 'Unsupported Content-Type "multipart/form-data": send application/x-www-form-urlencoded or application/json'],
  ] as const)('refuses %s and stores nothing', async (_label, body, headers, status, message) => {
    const before = await snapshot();
    const res = await raw('POST', '/courses/create', body as string | Uint8Array<ArrayBuffer>, headers);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ success: false, message });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses non-UTF-8 in the query string of a write', async () => {
    const before = await snapshot();
    const res = await raw('POST', '/courses/create?Title=%FF&Code=QS', undefined, {});
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: 'Request is not valid UTF-8' });
    expect(await snapshot()).toEqual(before);
  });

  it('keeps plain form decoding: + is a space, a stray % stays as it is', async () => {
    const res = await raw('POST', '/courses/create', 'Title=100%+sure&Code=PCT', form);
    expect(res.json).toMatchObject({ success: true, data: { Title: '100% sure', Code: 'PCT' } });
  });

  it('refuses NUL characters in text as a field error', async () => {
    const before = await snapshot();
    const res = await create('courses', { Title: 'a\u0000b', Code: 'NUL', Description: 'x\u0000' });
    expect(res.json).toMatchObject({ success: false, validationErrors: { Title: 'Title is invalid.', Description: 'Description is invalid.' } });
    const post = (await create('blog', { Title: 'Nul comments' })).json.data;
    const comment = await w.campus('POST', `/blog/${post.ID}/comment`, { token: user, json: true, fields: { Message: 'a\u0000' } });
    expect(comment.json).toMatchObject({ success: false, validationErrors: { Message: 'Message is invalid.' } });
    expect(await w.app.db.comment.count()).toBe(before.comments);
  });

  it('treats __proto__ and constructor as plain keys: ignored, nothing polluted', async () => {
    const res = await raw('POST', '/courses/create', '{"__proto__": {"Title": "polluted"}, "constructor": {"Code": "X"}, "Code": "PROTO"}', json);
    expect(res.json).toEqual({ success: false, data: { Code: 'PROTO' }, validationErrors: { Title: 'Title is missing.' }, message: 'Title is missing.' });
    expect(({} as Record<string, unknown>).Title).toBeUndefined();
    const viaForm = await raw('POST', '/courses/create', '__proto__=x&constructor=y&Title=Proto&Code=PROTO2', form);
    expect(viaForm.json).toMatchObject({ success: true, data: { Title: 'Proto', Code: 'PROTO2' } });
  });

  it('ignores include names that are not relationships (__proto__, toString) and repeated ones', async () => {
    const course = (await create('courses', { Title: 'Included', Code: 'INCL' })).json.data;
    const res = await w.campus('GET', `/courses/${course.ID}?include=__proto__,constructor,toString,${'Sections,'.repeat(500)}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: { ...course, Sections: [] } });
  });

  it('refuses tags and groupIDs that are not strings, too many or too long; stores nothing', async () => {
    const before = await snapshot();
    expect((await create('blog', { Title: 'Tagged', tags: [{}, null, [1]] })).json.validationErrors).toEqual({ tags: 'Tags is invalid.' });
    expect((await create('blog', { Title: 'Tagged', tags: 't'.repeat(256) })).json.validationErrors).toEqual({ tags: 'Tags is invalid.' });
    const many = Array.from({ length: 1001 }, (_, i) => `t${i}`).join(',');
    expect((await create('blog', { Title: 'Tagged', tags: many })).json.validationErrors).toEqual({ tags: 'Tags may list at most 1000 items.' });
    expect((await create('people', { FirstName: 'Gro', LastName: 'Ups', groupIDs: { a: 1 } })).json.validationErrors).toEqual({ groupIDs: 'Group IDs is invalid.' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses contact points that are not strings or over 255 characters, without a slow pattern match', async () => {
    const before = await snapshot();
    expect((await create('people', { FirstName: 'Con', LastName: 'Tact', Email: ['a@b.c'] })).json.validationErrors).toEqual({ Email: 'Email is invalid.' });
    // This address made the email pattern backtrack for minutes.
    const started = performance.now();
    const slow = await create('people', { FirstName: 'Con', LastName: 'Tact', Email: `a@${'.'.repeat(200_000)}@` });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slow.json.validationErrors).toEqual({ Email: 'Email is too long.' });
    expect((await create('people', { FirstName: 'Con', LastName: 'Tact', Phone: '1'.repeat(300) })).json.validationErrors).toEqual({ Phone: 'Phone is too long.' });
    expect(await snapshot()).toEqual(before);
  });
});
