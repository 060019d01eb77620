// `GET /<prefix>/*fields`: every kind's field metadata in Slate's shape (ActiveRecord::_initField
// keys, labels, enum values, NOT NULL for required fields, Staff-only fields marked), open to
// anyone as in Slate, and the `json` and urlencoded forms of the path.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { ACCOUNT_LEVELS, KIND_LIST, KINDS, STATUSES } from '../../../src/campus/kinds.ts';
import { RELATIONS } from '../../../src/campus/relationships.ts';
import { COMPUTED } from '../../../src/campus/computed.ts';

const w = useWorld();
let staff: string;
beforeAll(async () => {
  staff = (await w.campusToken('Staff')).token;
});

const get = (path: string, token: string | null = null) => w.campus('GET', path, { token });

describe('*fields', () => {
  it('answers every kind with its standard and own fields, in declaration order, and its dynamic fields', async () => {
    for (const kind of KIND_LIST) {
      const res = await get(`/${kind.prefix}/*fields`);
      expect(res.status, kind.prefix).toBe(200);
      expect(Object.keys(res.json)).toEqual(['fields', 'dynamicFields']);
      const standard = kind.versioned ? ['ID', 'Class', 'Created', 'CreatorID', 'RevisionID', 'Modified', 'ModifierID'] : ['ID', 'Class', 'Created', 'CreatorID'];
      expect(Object.keys(res.json.fields), kind.prefix).toEqual([...standard, ...kind.fields.map((f) => f.name)]);
      expect(Object.keys(res.json.dynamicFields).sort()).toEqual([...Object.keys(RELATIONS[kind.name]), ...Object.keys(COMPUTED[kind.name])].sort());
      for (const [name, field] of Object.entries<Record<string, unknown>>(res.json.fields)) {
        // _initField's keys, in its order, on every field.
        expect(Object.keys(field).slice(0, 10), `${kind.prefix}.${name}`).toEqual(['type', 'length', 'primary', 'unique', 'autoincrement', 'notnull', 'unsigned', 'default', 'values', 'columnName']);
        expect(field.columnName).toBe(name);
        expect(Object.keys(field).at(-1)).toBe('label');
        expect(field.blankisnull).toBe(field.notnull ? undefined : true);
      }
      expect(res.json.fields.Class.values).toContain(kind.className);
    }
  });

  it("describes people as Slate does: labels, types, enum values, NOT NULL names, Staff-only fields", async () => {
    const { fields, dynamicFields } = (await get('/people/*fields')).json;
    expect(fields.ID).toEqual({
      type: 'integer', length: null, primary: true, unique: null, autoincrement: true, notnull: true, unsigned: true, default: null, values: null,
      columnName: 'ID', includeInSummary: true, label: 'Person ID',
    });
    expect(fields.Created).toMatchObject({ type: 'timestamp', notnull: true, default: 'CURRENT_TIMESTAMP', label: 'Created' });
    expect(fields.CreatorID).toMatchObject({ type: 'integer', notnull: false, blankisnull: true, label: 'Creator ID' });
    expect(fields.Class.values).toEqual(['Emergence\\People\\Person', 'Emergence\\People\\User']);
    expect(fields.FirstName).toEqual({
      type: 'string', length: null, primary: null, unique: null, autoincrement: null, notnull: true, unsigned: null, default: null, values: null,
      columnName: 'FirstName', label: 'First name',
    });
    expect(fields.MiddleName).toMatchObject({ type: 'string', notnull: false, blankisnull: true });
    expect(fields.Gender).toMatchObject({ type: 'enum', values: ['Male', 'Female'], notnull: false, label: 'Gender' });
    expect(fields.BirthDate).toMatchObject({ type: 'date', notnull: false, accountLevelEnumerate: 'Staff', label: 'Birth date' });
    expect(fields.About.type).toBe('clob');
    expect(fields.PrimaryEmailID).toMatchObject({ type: 'uint', accountLevelEnumerate: 'Staff', label: 'Primary email ID' });
    expect(fields.Username).toMatchObject({ unique: true, label: 'Username' });
    expect(fields.AccountLevel).toMatchObject({ type: 'enum', values: ACCOUNT_LEVELS, accountLevelEnumerate: 'Staff', label: 'Account level' });
    expect(fields.PasswordHash).toBeUndefined();
    expect(dynamicFields.PrimaryEmail).toEqual({ accountLevelEnumerate: 'Staff', label: 'Primary email', relationship: 'PrimaryEmail' });
    expect(dynamicFields.groupIDs).toEqual({ label: 'Group IDs', method: 'groupIDs' });
  });

  it('marks required fields, defaults and unique codes on the other kinds', async () => {
    const sections = (await get('/sections/*fields')).json.fields;
    expect(sections.ID.label).toBe('Course section ID');
    expect(sections.CourseID).toMatchObject({ type: 'uint', notnull: true, label: 'Course ID' });
    expect(sections.Status).toMatchObject({ type: 'enum', values: STATUSES, default: 'Live', notnull: true });
    expect(sections.Code).toMatchObject({ unique: true, notnull: true });
    expect(sections.TermID).toMatchObject({ notnull: false, blankisnull: true });
    expect(sections.StudentsCapacity.label).toBe('Students capacity');

    const courses = (await get('/courses/*fields')).json.fields;
    expect(courses.Title).toMatchObject({ type: 'string', notnull: true });
    expect(courses.Description).toMatchObject({ type: 'clob', notnull: false });
    expect((await get('/departments/*fields')).json.fields.Code).toMatchObject({ unique: true, notnull: false });

    const blog = (await get('/blog/*fields')).json.fields;
    expect(blog.Visibility).toMatchObject({ type: 'enum', values: ['Public', 'Private'], default: 'Public' });
    expect(blog.Published).toMatchObject({ type: 'timestamp', notnull: false });

    const groups = (await get('/groups/*fields')).json;
    expect(groups.fields.RevisionID).toBeUndefined();
    expect(groups.fields.Name).toMatchObject({ notnull: true, label: 'Name' });
    expect(groups.dynamicFields.Parent).toEqual({ label: 'Parent', relationship: 'Parent' });
    const terms = (await get('/terms/*fields')).json.fields;
    expect(Object.keys(terms).slice(7)).toEqual(KINDS.Term.fields.map((f) => f.name));
    expect(terms.EndDate).toMatchObject({ type: 'date', notnull: false, label: 'End date' });
  });

  it('is open to anyone, on GET and POST, with the json segment and urlencoded star; other stars are records', async () => {
    const anon = await get('/groups/*fields');
    const asStaff = await get('/groups/*fields', staff);
    expect(anon.status).toBe(200);
    expect(anon.json).toEqual(asStaff.json);
    expect(anon.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('/people/json/*fields')).json).toEqual((await get('/people/*fields')).json);
    expect((await get('/people/%2Afields')).json).toEqual((await get('/people/*fields')).json);
    expect((await w.campus('POST', '/courses/*fields', { fields: {} })).json.fields.Code).toBeDefined();
    // Only the exact word is the route: `*fieldsx` is looked up as a record.
    const other = await get('/courses/*fieldsx', staff);
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ success: false, message: 'Record not found' });
  });
});
