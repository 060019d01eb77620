// Notes on people over GraphQL (Slate's Person `Notes`): Person.notes and the note mutations,
// calling the same domain functions as REST's /notes. Staff only: others get null for the list
// and the domain's refusal for a mutation.
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { executionScope } from '../execution-scope.ts';
import { hasLevel, KINDS } from '../../../campus/kinds.ts';
import { createNote, deleteNote, editNote, NOTE_FORMATS, NOTE_SOURCES, NOTE_STATUSES, noteListed, notesOf, type Note } from '../../../campus/notes.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { campusRefs } from './records.ts';
import { recordIdent } from './arguments.ts';
import { readableOrNull } from './fields.ts';

/** One DataLoader per execution and name: every record's list (or person) in one query. */
const loaders = new WeakMap<object, Map<string, DataLoader<number, unknown>>>();
export function scopedLoader<V>(ctx: GraphQLContext, info: GraphQLResolveInfo, name: string, batch: (ids: readonly number[]) => Promise<Map<number, V>>): DataLoader<number, V | null> {
  const scope = executionScope(ctx, info);
  let byName = loaders.get(scope);
  if (!byName) loaders.set(scope, (byName = new Map()));
  let loader = byName.get(name);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const found = await batch(ids);
      return ids.map((id) => found.get(id) ?? null);
    });
    byName.set(name, loader);
  }
  return loader as DataLoader<number, V | null>;
}

const asRecords = (ids: readonly number[]) => ids.map((ID) => ({ ID }) as CampusRecord);

export const NoteRef = builder.objectRef<Note>('Note').implement({
  description: "A note on a person (Slate's Emergence\\CRM\\Message), served at /notes; Staff only",
  fields: (t) => ({
    databaseId: t.exposeInt('ID', { description: "The note's ID (Slate's; REST's /notes/<id>, and the note mutations take it)" }),
    created: t.field({ type: 'DateTime', resolve: (n) => n.Created }),
    creatorId: t.exposeInt('CreatorID', { nullable: true }),
    modified: t.field({ type: 'DateTime', nullable: true, resolve: (n) => n.Modified }),
    contextClass: t.exposeString('ContextClass'),
    contextId: t.exposeInt('ContextID'),
    authorId: t.exposeInt('AuthorID', { nullable: true }),
    author: t.field({
      type: campusRefs.Person as never,
      nullable: true,
      description: 'Who wrote it (null when their record is gone)',
      resolve: (async (n: Note, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
        if (n.AuthorID === null) return null;
        const person = await scopedLoader(ctx, info, 'note-author', async (ids) => {
          const rows = await ctx.campus.db.person.findMany({ where: { ID: { in: [...ids] } } });
          return new Map(rows.map((p) => [p.ID, p]));
        }).load(n.AuthorID);
        return readableOrNull(KINDS.Person, person, ctx);
      }) as never,
    }),
    subject: t.exposeString('Subject'),
    message: t.exposeString('Message', { description: 'As written: HTML when messageFormat is html (render it sanitized or as text)' }),
    messageFormat: t.exposeString('MessageFormat', { description: `One of: ${NOTE_FORMATS.join(', ')}` }),
    status: t.exposeString('Status', { description: `One of: ${NOTE_STATUSES.join(', ')}; a draft-private note is seen by its author only` }),
    parentMessageId: t.exposeInt('ParentMessageID', { nullable: true }),
    source: t.exposeString('Source', { description: `One of: ${NOTE_SOURCES.join(', ')}` }),
    sent: t.field({ type: 'DateTime', nullable: true, description: 'When its status became sent', resolve: (n) => n.Sent }),
  }),
});

builder.objectField(campusRefs.Person as never, 'notes', (t) =>
  (t as unknown as { field: (o: object) => unknown }).field({
    type: [NoteRef],
    nullable: true,
    description: 'Notes on this person, newest first; Staff only (null for everyone else, the person included)',
    resolve: async (p: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
      const viewer = await ctx.viewer();
      if (!hasLevel(viewer.level, 'Staff')) return null;
      const notes = (await scopedLoader(ctx, info, 'person-notes', (ids) => notesOf(ctx.campus, asRecords(ids))).load(p.ID)) as Note[] | null;
      return (notes ?? []).filter((n) => noteListed(viewer, n));
    },
  }) as never,
);

const NoteInput = builder.inputType('NoteInput', {
  description: "A note's fields (Slate's names in REST); subject and message are required on create",
  fields: (t) => ({
    subject: t.string(),
    message: t.string(),
    messageFormat: t.string({ description: `One of: ${NOTE_FORMATS.join(', ')} (default html)` }),
    status: t.string({ description: `One of: ${NOTE_STATUSES.join(', ')} (default draft-private)` }),
    parentMessageId: t.int(),
    source: t.string({ description: `One of: ${NOTE_SOURCES.join(', ')} (default direct)` }),
  }),
});

type NoteValues = { subject?: string | null; message?: string | null; messageFormat?: string | null; status?: string | null; parentMessageId?: number | null; source?: string | null };
/** GraphQL's names → Slate's; a field left out is not changed (null clears it, or is refused where required). */
function noteFields(v: NoteValues): Record<string, unknown> {
  const map: Array<[keyof NoteValues, string]> = [['subject', 'Subject'], ['message', 'Message'], ['messageFormat', 'MessageFormat'], ['status', 'Status'], ['parentMessageId', 'ParentMessageID'], ['source', 'Source']];
  const out: Record<string, unknown> = {};
  for (const [g, s] of map) if (v[g] !== undefined) out[s] = v[g];
  return out;
}

const NOTE_ID = "The note's ID (databaseId)";

builder.mutationFields((t) => ({
  createNote: t.field({
    type: NoteRef,
    description: 'Adds a note on a person, written by the caller (Staff)',
    args: { person: t.arg.id({ required: true, description: "Slate's ID, username or email address, or the person's global `id`" }), input: t.arg({ type: NoteInput, required: true }) },
    resolve: async (_r, args, ctx) => createNote(ctx.campus, await ctx.viewer(), noteFields(args.input), recordIdent(args.person, KINDS.Person)),
  }),
  updateNote: t.field({
    type: NoteRef,
    description: "Edits a note's fields; it stays on its person, by its author",
    args: { id: t.arg.id({ required: true, description: NOTE_ID }), input: t.arg({ type: NoteInput, required: true }) },
    resolve: async (_r, args, ctx) => editNote(ctx.campus, await ctx.viewer(), String(args.id), noteFields(args.input)),
  }),
  deleteNote: t.field({
    type: NoteRef,
    description: 'Deletes a note and returns it as it was',
    args: { id: t.arg.id({ required: true, description: NOTE_ID }) },
    resolve: async (_r, args, ctx) => deleteNote(ctx.campus, await ctx.viewer(), String(args.id)),
  }),
}));
