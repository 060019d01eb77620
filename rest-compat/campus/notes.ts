// Slate's /notes (Slate\Progress\NotesRequestHandler over Emergence\CRM\MessagesRequestHandler,
// every level Staff, browse newest first) and a person's notes under their record,
// `/people/<h>/notes` (our path: Slate reaches them through /notes?q=person:<id>).
import { KINDS } from '../../src/campus/kinds.ts';
import { requireLevel } from '../../src/campus/access.ts';
import { browseNotes, createNote, deleteNote, editNote, getNote, NOTE_CLASS, personNotes, type Note } from '../../src/campus/notes.ts';
import { requireActiveProfile, type CampusDeps } from '../../src/campus/service.ts';
import { notFound } from '../../src/shared/errors.ts';
import { given, intParam } from './browse.ts';
import { PAGE_NOT_FOUND } from './extras.ts';
import type { Route } from './handler.ts';
import { readFields } from './request.ts';
import { epoch } from './serialize.ts';

/** Slate's JSON of a Message (a VersionedRecord: RevisionID, Modified, ModifierID). */
export function noteJson(note: Note): Record<string, unknown> {
  return {
    ID: note.ID,
    Class: note.Class,
    Created: epoch(note.Created),
    CreatorID: note.CreatorID,
    RevisionID: null,
    Modified: epoch(note.Modified),
    ModifierID: note.ModifierID,
    ContextClass: note.ContextClass,
    ContextID: note.ContextID,
    AuthorID: note.AuthorID,
    Subject: note.Subject,
    Message: note.Message,
    MessageFormat: note.MessageFormat,
    Status: note.Status,
    ParentMessageID: note.ParentMessageID,
    Source: note.Source,
    Sent: epoch(note.Sent),
  };
}

export function registerNoteRoutes(route: Route, deps: CampusDeps) {
  route(['GET', 'POST'], '/notes', async ({ query, viewer }) => {
    const offset = intParam(query.get('offset'));
    const q = given(query.get('q'));
    const result = await browseNotes(deps, viewer, { limit: intParam(query.get('limit')), offset, q });
    return { success: true, data: result.records.map(noteJson), conditions: [], total: result.total, limit: result.limit ?? false, offset: offset ?? false, ...(q ? { query: q } : {}) };
  });

  // Slate's create form for a JSON client: the empty note, `success: false`.
  route(['GET'], '/notes/create', async ({ viewer }) => {
    requireLevel(viewer, 'Staff');
    const template = { ID: null, Class: NOTE_CLASS, Created: 'CURRENT_TIMESTAMP', CreatorID: null, RevisionID: null, Modified: null, ModifierID: null, ContextClass: KINDS.Person.className, ContextID: null, AuthorID: null, Subject: null, Message: null, MessageFormat: 'html', Status: 'draft-private', ParentMessageID: null, Source: 'direct', Sent: null };
    return { success: false, data: template };
  });

  route(['POST'], '/notes/create', async ({ req, viewer }) => ({ success: true, data: noteJson(await createNote(deps, viewer, await readFields(req))) }));

  route(['GET', 'POST'], '/notes/:ident', async ({ viewer, params }) => ({ success: true, data: noteJson(await getNote(deps, viewer, params.ident!)) }));

  route(['GET'], '/notes/:ident/edit', async ({ viewer, params }) => ({ success: false, data: noteJson(await getNote(deps, viewer, params.ident!)) }));

  route(['POST'], '/notes/:ident/edit', async ({ req, viewer, params }) => {
    const fields = await readFields(req);
    return { success: true, data: noteJson(await editNote(deps, viewer, params.ident!, fields)) };
  });

  route(['GET', 'POST'], '/notes/:ident/delete', async ({ req, viewer, params }) => {
    // Slate's confirmation step: nothing is deleted by a GET.
    if (req.method === 'GET') return { question: 'Are you sure you want to delete this message?', data: noteJson(await getNote(deps, viewer, params.ident!)) };
    return { success: true, data: noteJson(await deleteNote(deps, viewer, params.ident!)) };
  });

  route(['GET', 'POST'], '/notes/:ident/*', async ({ viewer, params }) => {
    const note = await getNote(deps, viewer, params.ident!);
    if (params['*'] !== '') throw notFound(PAGE_NOT_FOUND);
    return { success: true, data: noteJson(note) };
  });

  // A person's notes, newest first (GET), and a new one on them (POST: Subject, Message, ...).
  route(['GET', 'POST'], '/people/:ident/notes', async ({ req, viewer, params }) => {
    await requireActiveProfile(deps, params.ident!);
    if (req.method === 'POST') return { success: true, data: noteJson(await createNote(deps, viewer, await readFields(req), params.ident!)) };
    const { notes } = await personNotes(deps, viewer, params.ident!);
    return { success: true, data: notes.map(noteJson) };
  });
}
