// Slate's CSV response mode on the campus browses (format=csv, Accept: text/csv, /<prefix>/csv):
// its header labels, RFC 4180 escaping, the formula-injection guard, and the same access,
// visibility, filters and paging as the JSON browse.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { csvCell } from '../../../rest-compat/campus/csv.ts';

const w = useWorld();
let staff: string;
let user: string;
let userId: number;
const ids: Record<string, number> = {};

/** A strict RFC 4180 reader (quoted cells, doubled quotes, CRLF records), to check what we write. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') (cell += '"'), (i += 2);
        else if (text[i] === '"') break;
        else if (i >= text.length) throw new Error('unterminated quote');
        else cell += text[i++];
      }
      i++;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') cell += text[i++];
      expect(cell).not.toMatch(/["\n]/);
    }
    row.push(cell);
    if (text[i] === ',') i++;
    else {
      expect(text.slice(i, i + 2)).toBe('\r\n');
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

const csv = (path: string, token: string | null = staff) => w.campus('GET', path, { token });

const PEOPLE_HEADER = [
  'Person ID', 'Class', 'Created', 'Creator ID', 'Revision ID', 'Modified', 'Modifier ID', 'First name', 'Last name', 'Middle name', 'Gender',
  'Birth date', 'Location', 'About', 'Primary photo ID', 'Primary email ID', 'Primary phone ID', 'Primary postal ID', 'Username', 'Account level',
];
const STAFF_ONLY = ['Birth date', 'Primary email ID', 'Primary phone ID', 'Primary postal ID', 'Account level'];

beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
  const u = await w.campusToken('User');
  user = u.token;
  userId = u.person_id;
  const person = async (key: string, fields: Record<string, unknown>) => {
    const made = await w.campus('POST', '/people/create', { token: staff, fields });
    expect(made.json.success).toBe(true);
    ids[key] = made.json.data.ID;
  };
  await person('quoted', { FirstName: 'Ann, "Jr"', LastName: 'Aardvark', About: 'line one\nline two', BirthDate: '2010-05-06', Username: 'aardvark', Password: 'correct horse battery' });
  await person('formula', { FirstName: 'Eve', LastName: '=HYPERLINK("http://evil.example")', Location: '+1 555', About: '@SUM(A1)', MiddleName: '-2+3' });
  await person('plain', { FirstName: 'Zed', LastName: 'Zulu', Username: 'zzulu' });
});

describe('people as CSV', () => {
  it("answers format=csv with Slate's type, file name and labelled columns, the rows of the JSON browse, and no password", async () => {
    const res = await csv('/people?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="people.csv"');
    expect(res.headers.get('x-response-id')).toBe('people');
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(PEOPLE_HEADER);

    const json = (await w.campus('GET', '/people?format=json', { token: staff })).json;
    expect(rows.map((r) => Number(r[0]))).toEqual(json.data.map((p: { ID: number }) => p.ID));
    const quoted = rows.find((r) => Number(r[0]) === ids.quoted)!;
    const record = json.data.find((p: { ID: number }) => p.ID === ids.quoted);
    // Every cell is the JSON value as text (null as empty), in header order.
    const names = ['ID', 'Class', 'Created', 'CreatorID', 'RevisionID', 'Modified', 'ModifierID', 'FirstName', 'LastName', 'MiddleName', 'Gender', 'BirthDate', 'Location', 'About', 'PrimaryPhotoID', 'PrimaryEmailID', 'PrimaryPhoneID', 'PrimaryPostalID', 'Username', 'AccountLevel'];
    expect(quoted).toEqual(names.map((n) => (record[n] === null ? '' : String(record[n]))));
    expect(quoted).toContain('2010-05-06');

    const stored = await w.app.db.person.findUniqueOrThrow({ where: { ID: ids.quoted } });
    expect(stored.PasswordHash).toBeTruthy();
    expect(res.text).not.toContain(stored.PasswordHash!);
    expect(res.text).not.toMatch(/password/i);
  });

  it('quotes commas, quotes and line breaks per RFC 4180, and makes formula-like text inert', async () => {
    const { text } = await csv('/people?format=csv');
    expect(text).toContain(`,"Ann, ""Jr""",Aardvark,`);
    expect(text).toContain(`"line one\nline two"`);
    const rows = parseCsv(text);
    const eve = rows.find((r) => Number(r[0]) === ids.formula)!;
    expect(eve[PEOPLE_HEADER.indexOf('Last name')]).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(eve[PEOPLE_HEADER.indexOf('Location')]).toBe(`'+1 555`);
    expect(eve[PEOPLE_HEADER.indexOf('About')]).toBe(`'@SUM(A1)`);
    expect(eve[PEOPLE_HEADER.indexOf('Middle name')]).toBe(`'-2+3`);
    // Numbers are written as numbers, never guarded.
    expect(eve[0]).toBe(String(ids.formula));
    // The stored value is untouched: only the export is guarded.
    expect((await w.campus('GET', `/people/${ids.formula}?format=json`, { token: staff })).json.data.LastName).toBe('=HYPERLINK("http://evil.example")');
  });

  it('is chosen by Accept: text/csv exactly and by the csv path segment; format=json wins over the header', async () => {
    const get = (path: string, accept: string) => fetch(w.url + path, { headers: { Authorization: `Token ${staff}`, Accept: accept } });
    const byAccept = await get('/people', 'text/csv');
    expect(byAccept.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(parseCsv(await byAccept.text())[0]).toEqual(PEOPLE_HEADER);
    // Slate matches the whole header: a list of types is not CSV.
    expect((await get('/people', 'text/csv, application/json')).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('/people?format=json', 'text/csv')).headers.get('content-type')).toMatch(/^application\/json/);

    const byPath = await csv('/people/csv');
    expect(byPath.headers.get('content-disposition')).toBe('attachment; filename="people.csv"');
    expect(parseCsv(byPath.text)[0]).toEqual(PEOPLE_HEADER);
  });

  it('pages, sorts, searches and picks columns as the JSON browse does; a bad column is a 400', async () => {
    const page = parseCsv((await csv('/people?format=csv&sort=ID&dir=DESC&limit=2&offset=1')).text);
    const json = (await w.campus('GET', '/people?format=json&sort=ID&dir=DESC&limit=2&offset=1', { token: staff })).json;
    expect(page.slice(1).map((r) => Number(r[0]))).toEqual(json.data.map((p: { ID: number }) => p.ID));
    expect(page).toHaveLength(3);

    const found = parseCsv((await csv('/people?format=csv&q=last:zulu')).text);
    expect(found.slice(1).map((r) => Number(r[0]))).toEqual([ids.plain]);

    const picked = parseCsv((await csv('/people?format=csv&columns=LastName,ID&q=last:zulu')).text);
    expect(picked).toEqual([['Last name', 'Person ID'], ['Zulu', String(ids.plain)]]);

    const bad = await csv('/people?format=csv&columns=LastName,PasswordHash');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, message: 'Unknown column: PasswordHash' });
    expect((await csv('/people?format=csv&sort=Nope')).json).toEqual({ success: false, message: 'Invalid sort field' });
    // No match: the header row alone.
    expect((await csv('/people?format=csv&q=last:nobody-has-this')).text).toBe(PEOPLE_HEADER.join(',') + '\r\n');
  });

  it('keeps access and Staff-only fields: anonymous is asked to log in, a user gets their own row without Staff columns', async () => {
    const anon = await csv('/people?format=csv', null);
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ success: false, loginRequired: true });

    const mine = await csv('/people?format=csv', user);
    expect(mine.status).toBe(200);
    const [header, ...rows] = parseCsv(mine.text);
    expect(header).toEqual(PEOPLE_HEADER.filter((h) => !STAFF_ONLY.includes(h)));
    expect(rows.map((r) => Number(r[0]))).toEqual([userId]);
    // Asking for a Staff-only column does not reveal it.
    const asked = parseCsv((await csv('/people?format=csv&columns=ID,BirthDate,AccountLevel', user)).text);
    expect(asked).toEqual([['Person ID'], [String(userId)]]);
  });
});

describe('cells', () => {
  it('guard tab and carriage-return starts too, quote what needs it, and leave numbers and booleans as values', () => {
    expect(csvCell('\tcmd')).toBe(`'\tcmd`);
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('safe text')).toBe('safe text');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('1');
    expect(csvCell(null)).toBe('');
  });
});

describe('other kinds as CSV', () => {
  it('sections: filtered by term like the JSON browse, named courseSections.csv; an unknown term is 404', async () => {
    const course = (await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Algebra', Code: 'ALG' } })).json.data;
    const fall = (await w.campus('POST', '/terms/create', { token: staff, fields: { Title: 'Fall 2026', StartDate: '2026-09-01', EndDate: '2026-12-20' } })).json.data;
    const spring = (await w.campus('POST', '/terms/create', { token: staff, fields: { Title: 'Spring 2027', StartDate: '2027-01-10', EndDate: '2027-05-30' } })).json.data;
    const a = (await w.campus('POST', '/sections/create', { token: staff, fields: { CourseID: course.ID, TermID: fall.ID, Title: 'Algebra, fall' } })).json.data;
    await w.campus('POST', '/sections/create', { token: staff, fields: { CourseID: course.ID, TermID: spring.ID } });

    const res = await csv(`/sections?format=csv&term=${fall.Handle}`, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="courseSections.csv"');
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(['Course section ID', 'Class', 'Created', 'Creator ID', 'Revision ID', 'Modified', 'Modifier ID', 'Course ID', 'Title', 'Handle', 'Code', 'Status', 'Notes', 'Students capacity', 'Term ID', 'Schedule ID', 'Location ID']);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(7, 11)).toEqual([String(course.ID), 'Algebra, fall', a.Handle, a.Code]);

    const missing = await csv('/sections?format=csv&term=no-such-term');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ success: false, message: 'term not found' });
  });

  it('groups (not versioned) have four standard columns; blog posts are blogPosts.csv; browse levels hold', async () => {
    await w.campus('POST', '/groups/create', { token: staff, fields: { Name: 'Chess Club' } });
    const groups = await csv('/groups?format=csv');
    expect(groups.headers.get('content-disposition')).toBe('attachment; filename="groups.csv"');
    const [header, ...rows] = parseCsv(groups.text);
    expect(header).toEqual(['Group ID', 'Class', 'Created', 'Creator ID', 'Name', 'Handle', 'Parent ID', 'Founded', 'Data', 'Status']);
    expect(rows.map((r) => r[4])).toContain('Chess Club');
    // Groups are browsed by Staff only, in CSV as in JSON.
    expect((await csv('/groups?format=csv', user)).status).toBe(403);

    await w.campus('POST', '/blog/create', { token: staff, fields: { Title: 'Hello', Status: 'Live' } });
    const blog = await csv('/blog?format=csv', null);
    expect(blog.headers.get('content-disposition')).toBe('attachment; filename="blogPosts.csv"');
    expect(parseCsv(blog.text)[0]![0]).toBe('Blog post ID');
  });
});
