// Connector mappings under a record (/<prefix>/<h>/mappings): Staff read, Administrators write;
// a duplicate (Connector, ExternalKey, ExternalIdentifier) re-points the existing mapping, as
// Slate's Mapping::create does; ?include=Mappings; mappings go with their record.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();
let admin: string;
let staff: string;
let user: { token: string; person_id: number };
let course: { ID: number };
let sectionA: { ID: number; Code: string };
let sectionB: { ID: number };

const call = (method: string, path: string, token: string | null, fields?: Record<string, unknown>) => w.campus(method, path, { token, fields, json: !!fields });
const create = async (prefix: string, fields: Record<string, unknown>) => {
  const res = await call('POST', `/${prefix}/create`, staff, fields);
  expect(res.json.success, res.text).toBe(true);
  return res.json.data;
};
const mapping = (identifier: string, extra: Record<string, unknown> = {}) => ({ Connector: 'canvas', ExternalKey: 'section_id', ExternalIdentifier: identifier, ...extra });

beforeAll(async () => {
  admin = (await w.campusToken('Administrator')).token;
  staff = (await w.campusToken('Staff')).token;
  user = await w.campusToken('User');
  course = await create('courses', { Title: 'Biology', Code: 'BIO' });
  sectionA = await create('sections', { CourseID: course.ID, Title: 'Bio A' });
  sectionB = await create('sections', { CourseID: course.ID, Title: 'Bio B' });
});

describe('/<prefix>/<h>/mappings', () => {
  it('lets Staff read and Administrators write; others are refused and nothing is stored', async () => {
    const path = `/sections/${sectionA.ID}/mappings`;
    expect((await call('GET', path, null)).status).toBe(401);
    expect((await call('GET', path, user.token)).status).toBe(403);
    expect((await call('GET', path, staff)).json).toEqual({ success: true, data: [] });
    expect((await call('POST', path, null, mapping('100'))).status).toBe(401);
    expect((await call('POST', path, user.token, mapping('100'))).status).toBe(403);
    const byStaff = await call('POST', path, staff, mapping('100'));
    expect(byStaff.status).toBe(403);
    expect(byStaff.json.message).toBe('You do not have authorization to access this resource');
    expect(await w.app.db.connectorMapping.count()).toBe(0);
  });

  it('creates a mapping on the record, by ID or code, Source manual unless told', async () => {
    const made = await call('POST', `/sections/${sectionA.Code}/mappings`, admin, mapping('100'));
    expect(made.json).toMatchObject({
      success: true,
      repointed: false,
      data: { Class: 'Emergence\\Connectors\\Mapping', ContextClass: 'Slate\\Courses\\Section', ContextID: sectionA.ID, Source: 'manual', Connector: 'canvas', ExternalKey: 'section_id', ExternalIdentifier: '100' },
    });
    await call('POST', `/sections/${sectionA.ID}/mappings`, admin, mapping('sis-7', { ExternalKey: 'sis_id', Source: 'matching' }));
    const listed = await call('GET', `/sections/${sectionA.ID}/mappings`, staff);
    expect(listed.json.data.map((m: { ExternalIdentifier: string; Source: string }) => [m.ExternalIdentifier, m.Source])).toEqual([['100', 'manual'], ['sis-7', 'matching']]);
    // Any kind has them: a person's (Slate's Person `Mapping`).
    const person = await call('POST', `/people/${user.person_id}/mappings`, admin, { Connector: 'canvas', ExternalKey: 'user_id', ExternalIdentifier: '55', Source: 'creation' });
    expect(person.json.data).toMatchObject({ ContextClass: 'Emergence\\People\\Person', ContextID: user.person_id, Source: 'creation' });
  });

  it('re-points an identifier already mapped to another record of the kind (Slate), and refuses one of another kind', async () => {
    const before = await w.app.db.connectorMapping.findFirstOrThrow({ where: { ExternalIdentifier: '100' } });
    const moved = await call('POST', `/sections/${sectionB.ID}/mappings`, admin, mapping('100', { Source: 'creation' }));
    expect(moved.json).toMatchObject({ success: true, repointed: true, data: { ID: before.ID, ContextID: sectionB.ID, Source: 'manual' } });
    expect(await w.app.db.connectorMapping.count({ where: { ExternalIdentifier: '100' } })).toBe(1);
    expect((await call('GET', `/sections/${sectionA.ID}/mappings`, staff)).json.data.map((m: { ExternalIdentifier: string }) => m.ExternalIdentifier)).toEqual(['sis-7']);
    const clash = await call('POST', `/courses/${course.ID}/mappings`, admin, mapping('100'));
    expect(clash.status).toBe(409);
    expect(clash.json.message).toBe('canvas section_id 100 is already mapped to a record of another kind');
    expect(await w.app.db.connectorMapping.findUniqueOrThrow({ where: { ID: before.ID } })).toMatchObject({ ContextClass: 'Slate\\Courses\\Section', ContextID: sectionB.ID });
  });

  it('refuses bad input with validation errors, and unknown records with 404, storing nothing', async () => {
    const count = await w.app.db.connectorMapping.count();
    const empty = await call('POST', `/sections/${sectionA.ID}/mappings`, admin, { Connector: '', ExternalKey: ' ' });
    expect(empty.json).toMatchObject({ success: false, validationErrors: { Connector: 'Connector is missing.', ExternalKey: 'External Key is missing.', ExternalIdentifier: 'External Identifier is missing.' } });
    const bad = await call('POST', `/sections/${sectionA.ID}/mappings`, admin, mapping('1', { Connector: 'x'.repeat(26), Source: 'guess', ExternalIdentifier: ['a'] }));
    expect(bad.json.validationErrors).toEqual({ Source: 'Source is invalid.', Connector: 'Connector is too long.', ExternalIdentifier: 'External Identifier is invalid.' });
    expect((await call('POST', '/sections/999999/mappings', admin, mapping('2'))).json).toEqual({ success: false, message: 'Record not found' });
    expect((await call('GET', '/terms/nope/mappings', staff)).status).toBe(404);
    expect(await w.app.db.connectorMapping.count()).toBe(count);
  });

  it('deletes a mapping only under its own record', async () => {
    const m = (await call('POST', `/sections/${sectionA.ID}/mappings`, admin, mapping('del-1'))).json.data;
    expect((await call('POST', `/sections/${sectionB.ID}/mappings/${m.ID}/delete`, admin)).status).toBe(404);
    expect((await call('POST', `/sections/${sectionA.ID}/mappings/${m.ID}/delete`, staff)).status).toBe(403);
    expect(await w.app.db.connectorMapping.count({ where: { ID: m.ID } })).toBe(1);
    expect((await call('POST', `/sections/${sectionA.ID}/mappings/${m.ID}/delete`, admin)).json).toMatchObject({ success: true, data: { ID: m.ID, ExternalIdentifier: 'del-1' } });
    expect(await w.app.db.connectorMapping.count({ where: { ID: m.ID } })).toBe(0);
    expect((await call('POST', `/sections/${sectionA.ID}/mappings/${m.ID}/delete`, admin)).status).toBe(404);
  });

  it('includes Mappings on sections and people for Staff only', async () => {
    const section = await call('GET', `/sections/${sectionA.ID}?include=Mappings`, staff);
    expect(section.json.data.Mappings.map((m: { ExternalIdentifier: string }) => m.ExternalIdentifier)).toEqual(['sis-7']);
    expect((await call('GET', `/sections/${sectionA.ID}?include=Mappings`, user.token)).json.data).not.toHaveProperty('Mappings');
    expect((await call('GET', `/sections/${sectionA.ID}?include=Mappings`, null)).json.data).not.toHaveProperty('Mappings');
    const browse = await call('GET', '/sections?include=Mappings', staff);
    const ofB = browse.json.data.find((s: { ID: number }) => s.ID === sectionB.ID);
    expect(ofB.Mappings.map((m: { ExternalIdentifier: string }) => m.ExternalIdentifier)).toEqual(['100']);
    const person = await call('GET', `/people/${user.person_id}?include=Mapping,Mappings`, staff);
    expect(person.json.data.Mapping).toEqual(person.json.data.Mappings);
    expect(person.json.data.Mapping.map((m: { ExternalIdentifier: string }) => m.ExternalIdentifier)).toEqual(['55']);
    expect((await call('GET', `/people/${user.person_id}?include=Mapping`, user.token)).json.data).not.toHaveProperty('Mapping');
  });

  it('go with their record, and with the subgroups a group delete takes', async () => {
    const doomed = await create('sections', { CourseID: course.ID, Title: 'Bio C' });
    await call('POST', `/sections/${doomed.ID}/mappings`, admin, mapping('c-1'));
    const parent = await create('groups', { Name: 'Year 9' });
    const child = await create('groups', { Name: 'Year 9 East', ParentID: parent.ID });
    await call('POST', `/groups/${child.ID}/mappings`, admin, { Connector: 'gsuite', ExternalKey: 'group', ExternalIdentifier: 'y9e' });
    const kept = await w.app.db.connectorMapping.count({ where: { ContextID: sectionA.ID, ContextClass: 'Slate\\Courses\\Section' } });
    expect((await call('POST', `/sections/${doomed.ID}/delete`, staff)).json.success).toBe(true);
    expect((await call('POST', `/groups/${parent.ID}/delete`, staff)).json.success).toBe(true);
    expect(await w.app.db.connectorMapping.count({ where: { ExternalIdentifier: { in: ['c-1', 'y9e'] } } })).toBe(0);
    expect(await w.app.db.connectorMapping.count({ where: { ContextID: sectionA.ID, ContextClass: 'Slate\\Courses\\Section' } })).toBe(kept);
  });
});
