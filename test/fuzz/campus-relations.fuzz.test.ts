// Fuzzing the campus routes the generic suite (campus.fuzz.test.ts) does not reach: contact
// points, relationships, notes, connector mappings, media (multipart uploads, files,
// thumbnails), CSV and `columns=`, `*fields`, `include=` of the relations, content items on
// posts and pages, departments, schedules and the sections' filters on them: no 5xx, no state
// change on a 4xx, /healthz still answering.
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { KIND_LIST } from '../../src/campus/kinds.ts';
import { body, campusHeaders, campusToken, enc, extremeNumber, formText, jsonObjectText, method, nastyString, numericText, queryString, segment } from './arbitraries.ts';
import { checkRequest, fuzzWorld, RUNS, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
const tokens: string[] = [];
/** Seeded IDs and handles, per name (several of each, as the fuzzer deletes some). */
const ids: Record<string, string[]> = {};
let png: Buffer;

const PERSON = 'Emergence\\People\\Person';
const push = (name: string, ...values: unknown[]) => (ids[name] ??= []).push(...values.filter((v) => v !== undefined && v !== null).map(String));

beforeAll(async () => {
  png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } }).png().toBuffer();
  fw = await fuzzWorld(async (w) => {
    const people: number[] = [];
    for (const level of ['User', 'Student', 'Staff', 'Administrator', 'Developer']) {
      const t = await w.campusToken(level);
      tokens.push(t.token);
      people.push(t.person_id);
    }
    const [staff, admin] = [tokens[2]!, tokens[3]!];
    const post = async (path: string, fields: Record<string, unknown>, token = staff) => {
      const res = await w.campus('POST', path, { token, fields, json: true });
      if (!res.json?.success) throw new Error(`seeding ${path} failed: ${res.text}`);
      return res.json.data;
    };
    for (let i = 0; i < 2; i++) {
      const a = await post('/people/create', { FirstName: 'Ada', LastName: `Seed ${i}`, Gender: 'Female' });
      const b = await post('/people/create', { FirstName: 'Anne', LastName: `Seed ${i}`, Gender: 'Female' });
      push('people', a.ID, a.Username ?? a.Handle, b.ID);
      people.push(a.ID, b.ID);
      const point = await post('/contact-points/create', { PersonID: a.ID, Class: 'Email', String: `ada${i}@example.org` });
      const phone = await post('/contact-points/create', { PersonID: b.ID, Class: 'Phone', String: '+1 215 867 5309' });
      push('contact-points', point.ID, phone.ID);
      const rel = await post('/relationships/create', { PersonID: a.ID, RelatedPersonID: b.ID, Label: 'Mother' });
      push('relationships', rel.ID, rel.InverseRelationship?.ID);
      const note = await post('/notes/create', { ContextClass: PERSON, ContextID: a.ID, Subject: `Note ${i}`, Message: 'Hello' });
      push('notes', note.ID);
      const mapping = await post(`/people/${a.ID}/mappings`, { Connector: 'canvas', ExternalKey: 'user_id', ExternalIdentifier: `u${i}` }, admin);
      push('mappings', mapping.ID);
      const form = new FormData();
      form.set('mediaFile', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
      form.set('ContextClass', PERSON);
      form.set('ContextID', String(a.ID));
      const uploaded = await fetch(`${w.url}/media/upload`, { method: 'POST', body: form, headers: { Authorization: `Token ${staff}` } });
      const media = ((await uploaded.json()) as { success: boolean; data: { ID: number } });
      if (!media.success) throw new Error('seeding the photo failed');
      push('media', media.data.ID);

      const dept = await post('/departments/create', { Title: `Science ${i}`, Code: `SCI${i}` });
      const sched = await post('/schedules/create', { Title: `Block ${i}` });
      push('departments', dept.ID, dept.Handle);
      push('schedules', sched.ID, sched.Handle);
      const course = await post('/courses/create', { Title: `Biology ${i}`, Code: `BIO${i}`, DepartmentID: dept.ID });
      const section = await post('/sections/create', { CourseID: course.ID, Title: `Bio ${i}`, ScheduleID: sched.ID });
      push('courses', course.ID, course.Handle);
      push('sections', section.ID, section.Handle);
      await post(`/sections/${section.ID}/mappings`, { Connector: 'canvas', ExternalKey: 'section_id', ExternalIdentifier: `s${i}` }, admin);

      const blog = await post('/blog/create?include=items', { Title: `Post ${i}`, items: [{ Class: 'Emergence\\CMS\\Item\\Markdown', Data: '# Hi' }, { Data: 'text' }] });
      const page = await post('/pages/create?include=items', { Title: `Page ${i}`, items: [{ Data: 'about' }] });
      push('blog', blog.ID, blog.Handle);
      push('pages', page.ID, page.Handle);
      push('items', ...blog.items.map((it: { ID: number }) => it.ID), ...page.items.map((it: { ID: number }) => it.ID));
    }
    push('people', ...people);
  });
});
afterAll(() => fw?.close());

const token = () => campusToken(tokens);

const scheme = fc.constantFrom('Token', 'Token', 'Token', 'token', 'Bearer', '');

/** A seeded identifier of `name` mostly, any segment sometimes. */
const ident = (name: string) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(ids[name] ?? ['1'])) }, { weight: 1, arbitrary: segment });

const RELATIONS = ['ContactPoints', 'Relationships', 'Guardians', 'Wards', 'Notes', 'Mappings', 'Photos', 'PrimaryPhoto', 'items', 'Items', 'Person', 'RelatedPerson', 'InverseRelationship', 'String', 'Primary', 'Department', 'Schedule', 'Course', 'Context', '*', '__proto__'];

/** `include=` of the relation names, one to five, with garbage between. */
const includeValue = fc
  .tuple(fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...RELATIONS) }, { weight: 1, arbitrary: nastyString }), { minLength: 1, maxLength: 5 }), fc.constantFrom(',', ',', '.', ' ,'))
  .map(([names, sep]) => enc(names.join(sep)));

const COLUMNS = ['ID', 'FirstName', 'LastName', 'Title', 'Handle', 'Email', 'Phone', 'PrimaryEmail', 'Class', 'Created', 'Code', 'Department', 'Schedule', 'Nope', '__proto__', ''];

/** Query strings with the relation routes' own parameters beside the generic ones. */
const relationQuery = fc
  .tuple(
    queryString,
    fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('person', 'relatedTo', 'department', 'schedule', 'ContextID', 'limit', 'offset'), fc.oneof(ident('people'), numericText.map(enc), segment)),
        fc.tuple(fc.constant('include'), includeValue),
        fc.tuple(fc.constant('format'), fc.constantFrom('csv', 'json', 'CSV', '', 'pdf')),
        fc.tuple(fc.constant('columns'), fc.array(fc.oneof(fc.constantFrom(...COLUMNS), nastyString), { maxLength: 6 }).map((c) => enc(c.join(',')))),
      ),
      { maxLength: 4 },
    ),
  )
  .map(([q, pairs]) => {
    const extra = pairs.map(([k, v]) => `${k}=${v}`).join('&');
    return q ? (extra ? `${q}&${extra}` : q) : extra ? `?${extra}` : '';
  });

/** /save and /destroy bodies: `data` arrays of deltas, IDs, or anything else. */
const batch = (fields: string[], name: string) =>
  fc
    .array(fc.oneof(jsonObjectText(fields), ident(name).map((i) => JSON.stringify(/^\d+$/.test(i) ? Number(i) : i)), fc.constantFrom('null', '[]', '{"ID":1e308}', '{"ID":"1"}', '{"ID":-1}', '{"ID":[1]}')), { maxLength: 6 })
    .map((items) => Buffer.from(`{"data":[${items.join(',')}]}`));

const send = (fw: FuzzWorld, m: string, path: string, t: string | null, s: string, b: { body?: Buffer; contentType?: string }) =>
  checkRequest(fw, { method: m, path, headers: campusHeaders(t, b.contentType, s), body: b.body });

/** Mostly the route's own method, sometimes any. */
const withMethod = (routed: fc.Arbitrary<readonly [string, string]>) =>
  fc.tuple(routed, fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: method })).map(([[m, p], other]) => [other ?? m, p] as const);

describe('fuzzing the campus relation routes', () => {
  const RECORD_ROUTES: Array<[string, string[]]> = [
    ['contact-points', ['PersonID', 'Class', 'Label', 'String', 'Data', 'Primary', 'ID']],
    ['relationships', ['PersonID', 'RelatedPersonID', 'Label', 'Class', 'Notes', 'InverseRelationship', 'Slot', 'ID']],
  ];
  for (const [prefix, fields] of RECORD_ROUTES) {
    it(`/${prefix}: browse, *templates, create, read, edit, delete, save, destroy`, async () => {
      const id = ident(prefix);
      const routed = fc.oneof(
        fc.constantFrom(['GET', ''], ['POST', '/create'], ['POST', '/save'], ['POST', '/destroy'], ['GET', '/*templates'], ['GET', '/json/*templates']),
        id.map((i) => ['GET', `/${i}`] as const),
        fc.tuple(id, fc.constantFrom('edit', 'delete', 'x')).map(([i, a]) => ['POST', `/${i}/${a}`] as const),
        id.map((i) => ['GET', `/${i}/delete`] as const),
      );
      // Data as Slate's classes hold it (a string, a postal address's parts) and as they do not.
      const pointData = fc.oneof(nastyString, extremeNumber, fc.constant(null), fc.dictionary(fc.constantFrom('name', 'number', 'street', 'unit', 'city', 'state', 'postal', '__proto__'), fc.oneof(nastyString, extremeNumber), { maxKeys: 5 }));
      const inverse = fc.oneof(fc.record({ Label: fc.oneof(fc.constantFrom('Son', 'Daughter', 'Child'), nastyString) }, { requiredKeys: [] }), nastyString, fc.constant(null));
      const people = ident('people').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      const input = fc
        .record({ PersonID: people, RelatedPersonID: people, Class: fc.constantFrom('Email', 'Phone', 'Postal', 'Network', 'Link', 'Emergence\\People\\ContactPoint\\Email', 'Emergence\\People\\GuardianRelationship', 'Nope'), Label: fc.oneof(fc.constantFrom('Mother', 'Father', 'Sister', 'Email', 'Mobile Phone', 'Twitter'), nastyString), String: nastyString, Data: pointData, Primary: fc.oneof(fc.boolean(), nastyString), Notes: nastyString, InverseRelationship: inverse }, { requiredKeys: [] })
        .map((o) => ({ body: Buffer.from(JSON.stringify(o)), contentType: 'application/json' }));
      const bodies = fc.oneof(
        { weight: 3, arbitrary: body(fields) },
        { weight: 3, arbitrary: input },
        { weight: 1, arbitrary: fc.record({ body: batch(fields, prefix), contentType: fc.constant('application/json') }) },
      );
      await fc.assert(
        fc.asyncProperty(withMethod(routed), relationQuery, token(), scheme, bodies, async ([m, p], q, t, s, b) => {
          await send(fw, m, `/${prefix}${p}${q}`, t, s, b);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });
  }

  it('/notes and /people/<h>/notes', async () => {
    const fields = ['ContextClass', 'ContextID', 'Subject', 'Message', 'MessageFormat', 'Status', 'ParentMessageID', 'Sent', 'ID'];
    const id = ident('notes');
    const routed = fc.oneof(
      fc.constantFrom(['GET', '/notes'], ['POST', '/notes/create'], ['GET', '/notes/create']),
      id.map((i) => ['GET', `/notes/${i}`] as const),
      fc.tuple(id, fc.constantFrom('edit', 'delete', 'x', 'x/y')).map(([i, a]) => ['POST', `/notes/${i}/${a}`] as const),
      fc.tuple(id, fc.constantFrom('edit', 'delete')).map(([i, a]) => ['GET', `/notes/${i}/${a}`] as const),
      fc.tuple(ident('people'), fc.constantFrom('GET', 'POST')).map(([h, m]) => [m, `/people/${h}/notes`] as const),
    );
    const note = fc
      .record({ ContextClass: fc.constantFrom(PERSON, 'Slate\\Courses\\Section', 'x', ''), ContextID: ident('people'), Subject: nastyString, Message: nastyString, MessageFormat: fc.constantFrom('html', 'markdown', 'x') }, { requiredKeys: [] })
      .map((o) => ({ body: Buffer.from(JSON.stringify(o)), contentType: 'application/json' }));
    await fc.assert(
      fc.asyncProperty(withMethod(routed), relationQuery, token(), scheme, fc.oneof(body(fields), note), async ([m, p], q, t, s, b) => {
        await send(fw, m, `${p}${q}`, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('/<prefix>/<h>/mappings: list, create, delete', async () => {
    const fields = ['Connector', 'ExternalKey', 'ExternalIdentifier', 'ContextClass', 'ContextID', 'MatchedBy', 'ID'];
    const routed = fc.oneof(
      fc.tuple(fc.constantFrom(...KIND_LIST.map((k) => k.prefix)), fc.constantFrom('GET', 'POST')).chain(([prefix, m]) => ident(prefix).map((h) => [m, `/${prefix}/${h}/mappings`] as const)),
      fc.tuple(fc.constantFrom('people', 'sections'), ident('mappings')).chain(([prefix, mid]) => ident(prefix).map((h) => ['POST', `/${prefix}/${h}/mappings/${mid}/delete`] as const)),
    );
    const mapping = fc
      .record({ Connector: fc.oneof(fc.constantFrom('canvas', 'google', ''), nastyString), ExternalKey: fc.oneof(fc.constantFrom('user_id', 'section_id'), nastyString), ExternalIdentifier: fc.oneof(numericText, nastyString) }, { requiredKeys: [] })
      .map((o) => ({ body: Buffer.from(JSON.stringify(o)), contentType: 'application/json' }));
    await fc.assert(
      fc.asyncProperty(withMethod(routed), queryString, token(), scheme, fc.oneof(body(fields), mapping), async ([m, p], q, t, s, b) => {
        await send(fw, m, `${p}${q}`, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('/media/upload: random multipart parts, random bytes as mediaFile, garbage content types', async () => {
    const bytes = fc.oneof(
      { weight: 3, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)) },
      { weight: 2, arbitrary: fc.constant(null).map(() => png) },
      { weight: 1, arbitrary: fc.nat({ max: 70 }).map((n) => png.subarray(0, n)) },
      { weight: 1, arbitrary: fc.constantFrom('%PDF-1.4\n%%EOF\n', 'GIF89a', '\xff\xd8\xff', 'RIFF\0\0\0\0WEBP', '<svg/>').map((t) => Buffer.from(t, 'latin1')) },
    );
    const part = fc.record({
      name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('mediaFile', 'mediaFile', 'ContextClass', 'ContextID', 'Caption', '_session', 'mediaFile[]') }, { weight: 1, arbitrary: nastyString }),
      filename: fc.option(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('me.png', 'a.pdf', '', '../../etc/passwd', 'x"y') }, { weight: 1, arbitrary: nastyString }), { nil: undefined, freq: 2 }),
      type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain', 'image/svg+xml', '', 'garbage'), { nil: undefined, freq: 2 }),
      value: fc.oneof(bytes, fc.constantFrom(PERSON, 'Slate\\Courses\\Section', ...(ids.people ?? [])).map((t) => Buffer.from(t)), nastyString.map((t) => Buffer.from(t))),
    });
    const boundary = fc.constantFrom('XyZ', '----fuzz', 'a'.repeat(70), '"q"');
    // Mostly a file part first (a photo, a prefix of one, or random bytes) so the checks past the parser run too.
    const filePart = fc.record({ name: fc.constant('mediaFile'), filename: fc.constantFrom('me.png', 'x', undefined), type: fc.constantFrom('image/png', 'image/png', 'application/pdf', 'image/jpeg', undefined), value: bytes });
    const parts = fc.tuple(fc.option(filePart, { nil: undefined, freq: 4 }), fc.array(part, { maxLength: 4 })).map(([file, rest]) => (file ? [file, ...rest] : rest));
    const multipart = fc.tuple(boundary, parts, fc.constantFrom('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'truncated', 'no-close', 'lf')).map(([b, parts, shape]) => {
      const nl = shape === 'lf' ? '\n' : '\r\n';
      const chunks: Buffer[] = [];
      for (const p of parts) {
        const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
        chunks.push(Buffer.from(`--${b.replace(/"/g, '')}${nl}${disposition}${nl}${p.type !== undefined ? `Content-Type: ${p.type}${nl}` : ''}${nl}`), p.value, Buffer.from(nl));
      }
      if (shape !== 'no-close') chunks.push(Buffer.from(`--${b.replace(/"/g, '')}--${nl}`));
      const all = Buffer.concat(chunks);
      return { b, body: shape === 'truncated' ? all.subarray(0, Math.floor(all.length / 2)) : all };
    });
    const contentType = (b: string) =>
      fc.oneof(
        { weight: 5, arbitrary: fc.constant(`multipart/form-data; boundary=${b}`) },
        { weight: 1, arbitrary: fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=other', 'multipart/mixed; boundary=XyZ', 'application/json', 'image/png', 'garbage/;;;', '') },
      );
    const upload = multipart.chain(({ b, body }) => contentType(b).map((ct) => ({ body, contentType: ct as string | undefined })));
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 6, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: method }), queryString, token(), scheme, fc.oneof({ weight: 5, arbitrary: upload }, { weight: 1, arbitrary: body(['mediaFile', 'Caption']) }), async (m, q, t, s, b) => {
        await send(fw, m, `/media/upload${q}`, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('/media/<id>, /media/open/<id>, thumbnails of any size', async () => {
    const size = fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 })).map(([a, b]) => `${a}x${b}`),
      fc.tuple(numericText, numericText).map(([a, b]) => enc(`${a}x${b}`)),
      fc.constantFrom('1x1', '9999x9999', '10000x1', '0x0', '1x', 'x1', '01x1', '1X1', '2x2x2', '-1x-1', '1.5x2'),
      segment,
    );
    const id = ident('media');
    const routed = fc.oneof(
      id.map((i) => ['GET', `/media/${i}`] as const),
      fc.constantFrom(['GET', '/media'] as const),
      id.map((i) => ['GET', `/media/open/${i}`] as const),
      fc.tuple(id, fc.constantFrom('edit', 'delete')).map(([i, a]) => ['POST', `/media/${i}/${a}`] as const),
      id.map((i) => ['GET', `/thumbnail/${i}`] as const),
      fc.tuple(id, size, fc.boolean()).map(([i, sz, c]) => ['GET', `/thumbnail/${i}/${sz}${c ? '/cropped' : ''}`] as const),
      ident('people').map((h) => ['GET', `/people/${h}/thumbnail`] as const),
      fc.tuple(ident('people'), size, fc.boolean()).map(([h, sz, c]) => ['GET', `/people/${h}/thumbnail/${sz}${c ? '/cropped' : ''}`] as const),
    );
    await fc.assert(
      fc.asyncProperty(withMethod(routed), queryString, token(), scheme, body(['Caption', '_session']), async ([m, p], q, t, s, b) => {
        await send(fw, m, `${p}${q}`, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('browses with format=csv, columns= and include= of the relations; /<prefix>/*fields', async () => {
    const prefix = fc.constantFrom(...KIND_LIST.map((k) => k.prefix));
    const routed = fc.oneof(
      prefix.map((p) => ['GET', `/${p}`] as const),
      prefix.map((p) => ['GET', `/${p}/csv`] as const),
      prefix.map((p) => ['GET', `/${p}/*fields`] as const),
      prefix.map((p) => ['GET', `/${p}/json/*fields`] as const),
      prefix.chain((p) => ident(p).map((h) => ['GET', `/${p}/${h}`] as const)),
      fc.constantFrom(['GET', '/sections'] as const),
    );
    const accept = fc.constantFrom(undefined, 'text/csv', 'application/json', 'text/csv;q=0.1, */*', '*/*');
    await fc.assert(
      fc.asyncProperty(withMethod(routed), relationQuery, token(), scheme, accept, async ([m, p], q, t, s, a) => {
        const headers = campusHeaders(t, undefined, s);
        if (a !== undefined) headers.Accept = a;
        await checkRequest(fw, { method: m, path: `${p}${q}`, headers });
      }),
      { numRuns: RUNS },
    );
  });

  it('items on /blog/create and /pages/<h>/edit: random classes, Data shapes and IDs', async () => {
    const itemClass = fc.oneof(fc.constantFrom('Emergence\\CMS\\Item\\Markdown', 'Emergence\\CMS\\Item\\Text', 'Emergence\\CMS\\Item\\RichText', 'Emergence\\CMS\\Item\\Media', 'Emergence\\CMS\\Item\\Embed', 'Markdown', 'Nope', ''), nastyString);
    const data = fc.oneof(nastyString, extremeNumber, fc.constant(null), fc.dictionary(fc.constantFrom('Markdown', 'Text', 'MediaID', 'Caption', 'html', '__proto__'), fc.oneof(nastyString, extremeNumber)), fc.array(nastyString, { maxLength: 3 }));
    const itemId = fc.oneof(ident('items').map(Number), extremeNumber, nastyString);
    const item = fc.record({ ID: itemId, Class: itemClass, Data: data, Order: extremeNumber, Status: fc.constantFrom('Published', 'Draft', 'Deleted', 'x') }, { requiredKeys: [] });
    const items = fc.oneof({ weight: 4, arbitrary: fc.array(item, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.oneof(nastyString, extremeNumber, fc.constant(null), fc.dictionary(fc.string({ maxLength: 3 }), item, { maxKeys: 3 })) });
    const json = fc.tuple(fc.option(nastyString, { nil: undefined }), items).map(([title, it]) => ({ body: Buffer.from(JSON.stringify({ Title: title ?? 'Fuzzed', items: it })), contentType: 'application/json' }));
    const form = formText(['items[0][Class]', 'items[0][Data]', 'items[0][Data][Markdown]', 'items[0][ID]', 'items[1][Data]', 'items[]', 'items', 'Title']).map((t) => ({ body: Buffer.from(`Title=Form&${t}`), contentType: 'application/x-www-form-urlencoded' }));
    const routed = fc.oneof(fc.constant(['POST', '/blog/create'] as const), ident('pages').map((h) => ['POST', `/pages/${h}/edit`] as const), ident('blog').map((h) => ['POST', `/blog/${h}/edit`] as const));
    await fc.assert(
      fc.asyncProperty(withMethod(routed), fc.constantFrom('', '?include=items', '?include=items,Items', '?include=*'), token(), scheme, fc.oneof(json, json, form, body(['items', 'Title'])), async ([m, p], q, t, s, b) => {
        await send(fw, m, `${p}${q}`, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('/departments and /schedules create and edit; sections filtered by department= and schedule=', async () => {
    const fields = ['Title', 'Handle', 'Code', 'Description', 'Status', 'ID', 'DepartmentID', 'ScheduleID'];
    const routed = fc.oneof(
      fc.constantFrom('departments', 'schedules').map((p) => ['POST', `/${p}/create`] as const),
      fc.constantFrom('departments', 'schedules').chain((p) => ident(p).map((h) => ['POST', `/${p}/${h}/edit`] as const)),
      ident('courses').map((h) => ['POST', `/courses/${h}/edit`] as const),
      ident('sections').map((h) => ['POST', `/sections/${h}/edit`] as const),
      fc.tuple(fc.constantFrom('department', 'schedule'), fc.oneof(ident('departments'), ident('schedules'), numericText.map(enc))).map(([k, v]) => ['GET', `/sections?${k}=${v}`] as const),
    );
    const input = fc
      .record({ Title: nastyString, Code: nastyString, Handle: nastyString, DepartmentID: fc.oneof(ident('departments'), extremeNumber), ScheduleID: fc.oneof(ident('schedules'), extremeNumber) }, { requiredKeys: [] })
      .map((o) => ({ body: Buffer.from(JSON.stringify(o)), contentType: 'application/json' }));
    await fc.assert(
      fc.asyncProperty(withMethod(routed), token(), scheme, fc.oneof(body(fields), input), async ([m, p], t, s, b) => {
        await send(fw, m, p, t, s, b);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
