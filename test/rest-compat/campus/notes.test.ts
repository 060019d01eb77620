// Slate's /notes (MessagesRequestHandler: Staff for every action, newest first) and a person's
// notes under their record: the access matrix, what a note stores, private drafts, validation
// that stores nothing, ?include=Notes, and notes going with the person.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { T0 } from '../../helpers/world.ts';

const w = useWorld();
let staff: { token: string; person_id: number };
let staff2: { token: string; person_id: number };
let user: { token: string; person_id: number };
/** The person the notes are about: a User who can log in. */
let subject: { token: string; person_id: number };

const call = (method: string, path: string, token: string | null, fields?: Record<string, unknown>) => w.campus(method, path, { token, fields, json: !!fields });
const noteCount = () => w.app.db.note.count();

beforeAll(async () => {
  staff = await w.campusToken('Staff');
  staff2 = await w.campusToken('Staff');
  user = await w.campusToken('User');
  subject = await w.campusToken('User');
});

describe('/notes', () => {
  it('is Staff only: anonymous callers must log in, users (the person too) are refused', async () => {
    const paths = ['/notes', `/people/${subject.person_id}/notes`, '/notes/create'];
    for (const path of paths) {
      expect((await call('GET', path, null)).status, path).toBe(401);
      expect((await call('GET', path, user.token)).status, path).toBe(403);
      expect((await call('GET', path, subject.token)).status, path).toBe(403);
    }
    const write = await call('POST', '/notes/create', subject.token, { ContextID: subject.person_id, Subject: 'Mine', Message: 'About me' });
    expect(write.status).toBe(403);
    expect(write.json).toEqual({ success: false, message: 'You do not have authorization to access this resource' });
    expect((await call('POST', `/people/${subject.person_id}/notes`, null, { Subject: 'x', Message: 'y' })).status).toBe(401);
    expect(await noteCount()).toBe(0);
    expect((await call('GET', '/notes', staff.token)).json).toMatchObject({ success: true, data: [], total: 0 });
  });

  it("creates a note written by the caller, with Slate's defaults, and dates it when it is sent", async () => {
    w.clock.set(T0);
    const made = await call('POST', '/notes/create', staff.token, { ContextClass: 'Emergence\\People\\Person', ContextID: subject.person_id, Subject: 'Attendance', Message: '<p>Late twice</p>' });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({
      success: true,
      data: {
        Class: 'Emergence\\CRM\\Message', Created: T0.getTime() / 1000, CreatorID: staff.person_id, RevisionID: null, Modified: null,
        ContextClass: 'Emergence\\People\\Person', ContextID: subject.person_id, AuthorID: staff.person_id,
        Subject: 'Attendance', Message: '<p>Late twice</p>', MessageFormat: 'html', Status: 'draft-private', ParentMessageID: null, Source: 'direct', Sent: null,
      },
    });
    const sent = await call('POST', `/people/${subject.person_id}/notes`, staff.token, { Subject: 'Report', Message: 'plain words', MessageFormat: 'plain', Status: 'sent' });
    expect(sent.json.data).toMatchObject({ ContextID: subject.person_id, Status: 'sent', MessageFormat: 'plain', Sent: T0.getTime() / 1000 });
    const row = await w.app.db.note.findUniqueOrThrow({ where: { ID: sent.json.data.ID } });
    expect(row).toMatchObject({ AuthorID: staff.person_id, Status: 'sent', Sent: T0 });
  });

  it('lists newest first by ID, private drafts to their author only, and searches by person', async () => {
    const other = (await call('POST', '/people/create', staff.token, { FirstName: 'Other', LastName: 'Pupil' })).json.data;
    const shared = await call('POST', `/people/${other.ID}/notes`, staff2.token, { Subject: 'Shared', Message: 'for all staff', Status: 'draft-shared' });
    const secret = await call('POST', `/people/${subject.person_id}/notes`, staff2.token, { Subject: 'Secret', Message: 'mine only' });
    const subjects = async (path: string, token: string) => (await call('GET', path, token)).json.data.map((n: { Subject: string }) => n.Subject);
    // staff's own private draft (Attendance) and the sent Report; staff2's Secret is hidden from staff.
    expect(await subjects('/notes', staff.token)).toEqual(['Shared', 'Report', 'Attendance']);
    expect(await subjects('/notes', staff2.token)).toEqual(['Secret', 'Shared', 'Report']);
    expect(await subjects(`/people/${subject.person_id}/notes`, staff.token)).toEqual(['Report', 'Attendance']);
    expect(await subjects(`/people/${subject.person_id}/notes`, staff2.token)).toEqual(['Secret', 'Report']);
    expect(await subjects(`/notes?q=person:${other.ID}`, staff.token)).toEqual(['Shared']);
    expect(await subjects('/notes?q=subject:Rep', staff.token)).toEqual(['Report']);
    expect((await call('GET', '/notes?q=colour:red', staff.token)).json).toEqual({ success: false, message: 'Unknown search qualifier: colour' });
    // Paging as Slate's browse: limit and offset, with the total.
    expect((await call('GET', '/notes?limit=1&offset=1', staff.token)).json).toMatchObject({ data: [{ Subject: 'Report' }], total: 3, limit: 1, offset: 1 });
    // Another's private draft is not found, even by ID; its author reads it.
    expect((await call('GET', `/notes/${secret.json.data.ID}`, staff.token)).status).toBe(404);
    expect((await call('GET', `/notes/${secret.json.data.ID}`, staff2.token)).json.data.Subject).toBe('Secret');
    expect((await call('GET', `/notes/${shared.json.data.ID}`, staff.token)).json.data.Subject).toBe('Shared');
  });

  it('edits a note: the author stays, Sent is set once when it becomes sent', async () => {
    const note = (await call('POST', `/people/${subject.person_id}/notes`, staff.token, { Subject: 'Draft', Message: 'v1', Status: 'draft-shared' })).json.data;
    w.clock.set(new Date(T0.getTime() + 60_000));
    const edited = await call('POST', `/notes/${note.ID}/edit`, staff2.token, { Message: 'v2', Status: 'sent' });
    expect(edited.json).toMatchObject({ success: true, data: { Subject: 'Draft', Message: 'v2', Status: 'sent', AuthorID: staff.person_id, ModifierID: staff2.person_id, Sent: T0.getTime() / 1000 + 60 } });
    w.clock.set(new Date(T0.getTime() + 120_000));
    const again = await call('POST', `/notes/${note.ID}/edit`, staff.token, { Subject: 'Final' });
    expect(again.json.data).toMatchObject({ Subject: 'Final', Sent: T0.getTime() / 1000 + 60 });
    // Another's private draft cannot be edited (not found), nor can a User edit any note.
    const secret = (await call('POST', `/people/${subject.person_id}/notes`, staff2.token, { Subject: 'Hidden', Message: 'x' })).json.data;
    expect((await call('POST', `/notes/${secret.ID}/edit`, staff.token, { Subject: 'Taken' })).status).toBe(404);
    expect((await call('POST', `/notes/${note.ID}/edit`, user.token, { Subject: 'Taken' })).status).toBe(403);
    expect((await w.app.db.note.findUniqueOrThrow({ where: { ID: secret.ID } })).Subject).toBe('Hidden');
  });

  it('refuses bad input with validation errors and stores nothing', async () => {
    const before = await noteCount();
    const empty = await call('POST', `/people/${subject.person_id}/notes`, staff.token, { Subject: '  ', Message: '' });
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({ success: false, validationErrors: { Subject: 'A subject is required', Message: 'A message is required' }, message: 'A subject is required' });
    const bad = await call('POST', '/notes/create', staff.token, { ContextID: subject.person_id, Subject: 'S', Message: 'M', Status: 'archived', MessageFormat: 'rtf', ParentMessageID: 999999 });
    expect(bad.json.validationErrors).toEqual({ Status: 'Status is invalid.', MessageFormat: 'Message Format is invalid.', ParentMessageID: 'Parent Message 999999 does not exist.' });
    for (const context of [{ ContextID: 999999 }, { ContextClass: 'Slate\\Courses\\Section', ContextID: subject.person_id }, {}]) {
      const r = await call('POST', '/notes/create', staff.token, { ...context, Subject: 'S', Message: 'M' });
      expect(r.json.validationErrors, JSON.stringify(context)).toEqual({ Context: 'A note must be in the context of a person' });
    }
    expect((await call('POST', '/notes/create', staff.token, { ContextID: subject.person_id, Subject: ['a'], Message: { m: 1 } })).json.validationErrors).toEqual({ Subject: 'Subject is invalid.', Message: 'Message is invalid.' });
    // A body that is not JSON is a bad request (400), before anything is looked at.
    const broken = await fetch(`${w.url}/notes/create`, { method: 'POST', headers: { Authorization: `Token ${staff.token}`, 'Content-Type': 'application/json' }, body: '{"Subject": ' });
    expect(broken.status).toBe(400);
    expect((await call('POST', '/people/999999/notes', staff.token, { Subject: 'S', Message: 'M' })).status).toBe(404);
    expect((await call('GET', '/notes/999999', staff.token)).json).toEqual({ success: false, message: 'Record not found' });
    expect((await call('GET', '/notes/abc', staff.token)).status).toBe(404);
    expect(await noteCount()).toBe(before);
  });

  it('deletes a note on POST only; unknown sub-routes are not found', async () => {
    const note = (await call('POST', `/people/${subject.person_id}/notes`, staff.token, { Subject: 'Gone soon', Message: 'x', Status: 'sent' })).json.data;
    const ask = await call('GET', `/notes/${note.ID}/delete`, staff.token);
    expect(ask.json).toMatchObject({ question: 'Are you sure you want to delete this message?', data: { ID: note.ID } });
    expect(await w.app.db.note.count({ where: { ID: note.ID } })).toBe(1);
    expect((await call('GET', `/notes/${note.ID}/recipients`, staff.token)).json).toEqual({ success: false, message: 'Page not found' });
    expect((await call('POST', `/notes/${note.ID}/delete`, user.token)).status).toBe(403);
    expect((await call('POST', `/notes/${note.ID}/delete`, staff.token)).json).toMatchObject({ success: true, data: { ID: note.ID, Subject: 'Gone soon' } });
    expect(await w.app.db.note.count({ where: { ID: note.ID } })).toBe(0);
    expect((await call('POST', `/notes/${note.ID}/delete`, staff.token)).status).toBe(404);
  });

  it('includes Notes on people for Staff only (not the person themselves), as listed', async () => {
    const withNotes = await call('GET', `/people/${subject.person_id}?include=Notes`, staff.token);
    const listed = (await call('GET', `/people/${subject.person_id}/notes`, staff.token)).json.data.map((n: { ID: number }) => n.ID);
    expect(withNotes.json.data.Notes.map((n: { ID: number }) => n.ID)).toEqual(listed);
    expect(listed.length).toBeGreaterThan(1);
    expect(withNotes.json.data.Notes[0]).toMatchObject({ Class: 'Emergence\\CRM\\Message', ContextID: subject.person_id });
    expect((await call('GET', `/people/${subject.person_id}?include=Notes`, subject.token)).json.data).not.toHaveProperty('Notes');
    expect((await call('GET', `/people/${subject.person_id}?include=Notes`, user.token)).json.data).not.toHaveProperty('Notes');
    // A browse loads every person's notes in one query: each person gets their own.
    const page = await call('GET', '/people?include=Notes&limit=0', staff.token);
    const ofSubject = page.json.data.find((p: { ID: number }) => p.ID === subject.person_id);
    expect(ofSubject.Notes.map((n: { ID: number }) => n.ID)).toEqual(listed);
    expect(page.json.data.find((p: { ID: number }) => p.ID === user.person_id).Notes).toEqual([]);
  });

  it("goes with the person: deleting them deletes their notes", async () => {
    const gone = (await call('POST', '/people/create', staff.token, { FirstName: 'Leaving', LastName: 'Soon' })).json.data;
    await call('POST', `/people/${gone.ID}/notes`, staff.token, { Subject: 'One', Message: 'x' });
    await call('POST', `/people/${gone.ID}/notes`, staff2.token, { Subject: 'Two', Message: 'y' });
    const others = await w.app.db.note.count({ where: { NOT: { ContextID: gone.ID } } });
    expect(await w.app.db.note.count({ where: { ContextID: gone.ID } })).toBe(2);
    expect((await call('POST', `/people/${gone.ID}/delete`, staff.token)).json.success).toBe(true);
    expect(await w.app.db.note.count({ where: { ContextID: gone.ID } })).toBe(0);
    expect(await w.app.db.note.count({ where: { NOT: { ContextID: gone.ID } } })).toBe(others);
  });
});
