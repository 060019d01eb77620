// Field validation from the kind table, as Slate's validator answers: trimmed strings, blanks as
// null, defaults, required messages, and the range of every type.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import { parseDate, parseTimestamp, spacify, validateFields } from '../../src/campus/validate.ts';

describe('spacify', () => {
  it('spaces CamelCase names as Slate does in its default messages', () => {
    expect(spacify('CourseSectionID')).toBe('Course Section ID');
    expect(spacify('StudentsCapacity')).toBe('Students Capacity');
    expect(spacify('PrimaryEmailID')).toBe('Primary Email ID');
    expect(spacify('Title')).toBe('Title');
  });
});

describe('parseDate', () => {
  it('takes a real calendar date as given', () => {
    expect(parseDate('2026-01-05')).toBe('2026-01-05');
    expect(parseDate(' 2024-02-29 ')).toBe('2024-02-29');
  });

  it('refuses dates that do not exist and other shapes', () => {
    for (const v of ['2026-02-29', '2026-13-01', '2026-1-5', '05/01/2026', 'tomorrow', '']) expect(parseDate(v), v).toBeUndefined();
  });

  it('reads a Unix timestamp in seconds as its UTC date, up to year 9999', () => {
    expect(parseDate('1767607200')).toBe('2026-01-05');
    expect(parseDate(String(Date.UTC(9999, 11, 31) / 1000))).toBe('9999-12-31');
    expect(parseDate(String(Date.UTC(10000, 0, 1) / 1000))).toBeUndefined();
  });
});

describe('parseTimestamp', () => {
  it('reads dates, date-times with or without seconds and offsets, as UTC unless told', () => {
    expect(parseTimestamp('2026-01-05')).toEqual(new Date('2026-01-05T00:00:00Z'));
    expect(parseTimestamp('2026-01-05 10:30')).toEqual(new Date('2026-01-05T10:30:00Z'));
    expect(parseTimestamp('2026-01-05T10:30:15+02:00')).toEqual(new Date('2026-01-05T08:30:15Z'));
    expect(parseTimestamp('2026-01-05T10:30:15-0500')).toEqual(new Date('2026-01-05T15:30:15Z'));
    expect(parseTimestamp('1767607200')).toEqual(new Date('2026-01-05T10:00:00Z'));
  });

  it('keeps a Date in range and refuses one past 9999-12-31 23:59:59', () => {
    const d = new Date('2026-01-05T10:00:00Z');
    expect(parseTimestamp(d)).toBe(d);
    expect(parseTimestamp(new Date(Date.UTC(9999, 11, 31, 23, 59, 59)))).toEqual(new Date('9999-12-31T23:59:59Z'));
    expect(parseTimestamp(new Date(Date.UTC(10000, 0, 1)))).toBeUndefined();
    expect(parseTimestamp(new Date('nonsense'))).toBeUndefined();
  });

  it('refuses other text', () => {
    for (const v of ['next week', '2026-01-05T25:00', '10:30', '']) expect(parseTimestamp(v), v).toBeUndefined();
  });
});

describe('validateFields', () => {
  it('on create, names every missing required field with Slate’s message', () => {
    expect(validateFields(KINDS.Course, {}, null).errors).toEqual({ Title: 'Title is missing.', Code: 'Code is missing.' });
    expect(validateFields(KINDS.Person, {}, null).errors).toEqual({ FirstName: 'First name is required.', LastName: 'Last name is required.' });
    expect(validateFields(KINDS.Section, {}, null).errors).toEqual({ Course: 'Course must be selected' });
    expect(validateFields(KINDS.BlogPost, {}, null).errors).toEqual({ Title: 'A title is required' });
  });

  it('on edit, checks only the fields given', () => {
    expect(validateFields(KINDS.Course, { Description: 'Proofs' }, { ID: 1, Title: 'Algebra', Code: 'MATH1' })).toEqual({ data: { Description: 'Proofs' }, errors: {} });
  });

  it('trims strings, ignores unknown keys and converts digits for int fields', () => {
    const { data, errors } = validateFields(KINDS.Section, { CourseID: '12', Title: '  Algebra A  ', StudentsCapacity: 30, Nonsense: 'x' }, null);
    expect(errors).toEqual({});
    expect(data).toEqual({ CourseID: 12, Title: 'Algebra A', StudentsCapacity: 30 });
  });

  it('turns a blank optional field into null, or its default where the column holds no null', () => {
    const { data, errors } = validateFields(KINDS.BlogPost, { Title: 'News', Handle: '  ', Status: '', Visibility: '' }, null);
    expect(errors).toEqual({});
    expect(data).toMatchObject({ Title: 'News', Handle: null, Status: 'Live', Visibility: 'Public' });
  });

  it('refuses a blank required field on edit too', () => {
    expect(validateFields(KINDS.Course, { Title: '   ' }, { ID: 1 }).errors).toEqual({ Title: 'Title is missing.' });
  });

  it('refuses ints out of the 32-bit range, negative or fractional', () => {
    for (const v of [-1, 1.5, 2 ** 31, '2147483648', '1e3', 'twelve']) {
      expect(validateFields(KINDS.Section, { StudentsCapacity: v }, { ID: 1 }).errors, String(v)).toEqual({ StudentsCapacity: 'Students Capacity is invalid.' });
    }
    expect(validateFields(KINDS.Section, { StudentsCapacity: 2 ** 31 - 1 }, { ID: 1 }).data).toEqual({ StudentsCapacity: 2147483647 });
  });

  it('accepts only the listed enum values, trimmed and case-sensitive', () => {
    expect(validateFields(KINDS.Person, { Gender: ' Female ' }, { ID: 1 }).data).toEqual({ Gender: 'Female' });
    expect(validateFields(KINDS.Person, { Gender: 'female' }, { ID: 1 }).errors).toEqual({ Gender: 'Gender is invalid.' });
    expect(validateFields(KINDS.Course, { Status: 'Archived' }, { ID: 1 }).errors).toEqual({ Status: 'Status is invalid.' });
  });

  it('refuses a varchar past 255 characters (after trimming), NUL, and non-scalars', () => {
    expect(validateFields(KINDS.Course, { Code: ` ${'c'.repeat(255)} ` }, { ID: 1 }).data).toEqual({ Code: 'c'.repeat(255) });
    expect(validateFields(KINDS.Course, { Code: 'c'.repeat(256) }, { ID: 1 }).errors).toEqual({ Code: 'Code is too long.' });
    expect(validateFields(KINDS.Course, { Code: 'MATH\u00001' }, { ID: 1 }).errors).toEqual({ Code: 'Code is invalid.' });
    expect(validateFields(KINDS.Course, { Code: ['MATH1'] }, { ID: 1 }).errors).toEqual({ Code: 'Code is invalid.' });
    expect(validateFields(KINDS.Course, { Code: 101 }, { ID: 1 }).data).toEqual({ Code: '101' });
  });

  it('keeps text as given (untrimmed), but refuses NUL', () => {
    expect(validateFields(KINDS.Course, { Description: '  Two lines\n' }, { ID: 1 }).data).toEqual({ Description: '  Two lines\n' });
    expect(validateFields(KINDS.Course, { Description: 'a\u0000b' }, { ID: 1 }).errors).toEqual({ Description: 'Description is invalid.' });
  });

  it('wants first and last names of two characters at least', () => {
    expect(validateFields(KINDS.Person, { FirstName: 'A', LastName: 'Lovelace' }, null).errors).toEqual({ FirstName: 'First name is required.' });
    expect(validateFields(KINDS.Person, { FirstName: 'Al', LastName: 'Lo' }, null).errors).toEqual({});
  });

  it('accepts a field by its alias (a term’s StartDate for the StarDate column)', () => {
    expect(validateFields(KINDS.Term, { Title: 'Spring', StartDate: '2026-01-05', EndDate: '2026-06-30' }, null)).toEqual({
      data: { Title: 'Spring', StarDate: '2026-01-05', EndDate: '2026-06-30' },
      errors: {},
    });
    expect(validateFields(KINDS.Term, { StartDate: '2026-02-30' }, { ID: 1 }).errors).toEqual({ StarDate: 'Star Date is invalid.' });
  });

  it('converts timestamps to Dates', () => {
    expect(validateFields(KINDS.Page, { Published: '2026-01-05 09:00' }, { ID: 1 }).data).toEqual({ Published: new Date('2026-01-05T09:00:00Z') });
    expect(validateFields(KINDS.Page, { Published: 'soon' }, { ID: 1 }).errors).toEqual({ Published: 'Published is invalid.' });
  });
});
