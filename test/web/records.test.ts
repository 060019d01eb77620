// The dashboard's records column appears only when the server has Check.records; this is how
// it builds the selection from what the schema says the records are.
import { describe, expect, it } from 'vitest';
import { recordLabel, recordsSelection } from '../../web/dashboard/records.ts';

describe('recordsSelection', () => {
  it('is empty without a record type', () => {
    expect(recordsSelection(null)).toBe('');
  });

  it('asks an object type for the fields that name a record', () => {
    expect(recordsSelection({ kind: 'OBJECT', fields: [{ name: 'id' }, { name: 'kind' }, { name: 'title' }, { name: 'handle' }] })).toBe('records { __typename title handle }');
  });

  it('asks each member of a union for its own label fields, in fragments', () => {
    const union = {
      kind: 'UNION',
      possibleTypes: [
        { name: 'Course', fields: [{ name: 'title' }, { name: 'code' }] },
        { name: 'Person', fields: [{ name: 'fullName' }] },
        { name: 'Opaque', fields: [{ name: 'id' }] },
      ],
    };
    expect(recordsSelection(union)).toBe('records { __typename ... on Course { Course_title: title Course_code: code } ... on Person { Person_fullName: fullName } }');
  });

  it('labels a record by its kind and the best name it has, aliased or not', () => {
    expect(recordLabel({ __typename: 'Course', title: 'Algebra', code: 'MATH' } as never)).toBe('Course: Algebra');
    expect(recordLabel({ __typename: 'Section', Section_title: null, Section_code: 'MATH-001', Section_handle: 'm1' } as never)).toBe('Section: MATH-001');
    expect(recordLabel({ __typename: 'Person', Person_username: 'ada' } as never)).toBe('Person: ada');
    expect(recordLabel({ __typename: 'Opaque' })).toBe('Opaque');
  });
});
