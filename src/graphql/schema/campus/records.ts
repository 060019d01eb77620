// The campus kinds as GraphQL types, queries and mutations, generated from the kind
// table so REST and GraphQL cannot drift. Resolvers call the records service; relationships
// are Prisma relations planned by Pothos (batched), or DataLoaders where they are not.
import { pointString } from '../../../campus/contact-points.ts';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { executionScope } from '../execution-scope.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { KIND_LIST, KINDS, type FieldSpec, type KindName, type KindSpec } from '../../../campus/kinds.ts';
import * as records from '../../../campus/service.ts';
import { contextContent, RELATIONS } from '../../../campus/relationships.ts';
import { addComment } from '../../../campus/comments.ts';
import { hasLevel } from '../../../campus/kinds.ts';
import { gqlName, readableOnly, readableOrNull, toRecordInput, typeReadRule, visibleField } from './fields.ts';
import { MAX_OFFSET, MAX_PAGE, pageArgument } from '../pagination.ts';
import { BROWSE_MAX_LIMIT } from '../../../campus/limits.ts';
import type { BrowseFilters } from '../../../campus/filters.ts';
import { kindScope } from '../../../campus/lookup.ts';
import { asInt, intKey, nodeId } from '../node-keys.ts';
import { commentNode, groupMemberNode, sectionParticipantNode } from './nodes.ts';
import { recordId, refCondition } from './arguments.ts';

/** A nested Pothos selection as an object that more Prisma arguments can join. */
const selection = (s: unknown) => (typeof s === 'object' && s !== null ? s : {});

/** A nested selection that also loads `relation`, so a join row can be filtered on its record. */
function withRelation(s: unknown, relation: string) {
  const nested = selection(s) as { select?: Record<string, unknown>; include?: Record<string, unknown> };
  if (nested.select) return { ...nested, select: { ...nested.select, [relation]: nested.select[relation] ?? true } };
  return { ...nested, include: { ...nested.include, [relation]: nested.include?.[relation] ?? true } };
}

type Nested = (s: unknown) => unknown;

/** "No limit" for the service when only an offset is given: its largest page (Int columns, 2^31 - 1). */
const ALL = 2 ** 31 - 1;

const MODEL_NAME = { person: 'Person', section: 'Section', course: 'Course', content: 'Content', group: 'Group', location: 'Location', term: 'Term', department: 'Department', schedule: 'Schedule' } as const;
const PLURAL: Record<KindName, string> = { Person: 'people', Section: 'sections', Course: 'courses', BlogPost: 'blogPosts', Page: 'pages', Group: 'groups', Location: 'locations', Term: 'terms', Department: 'departments', Schedule: 'schedules' };
const SINGULAR: Record<KindName, string> = { Person: 'person', Section: 'section', Course: 'course', BlogPost: 'blogPost', Page: 'page', Group: 'group', Location: 'location', Term: 'term', Department: 'department', Schedule: 'schedule' };

/** What every campus `id` argument takes (arguments.ts). */
const ID_ARG = "Slate's ID (`databaseId`) or the record's global `id`";

// Pothos types each builder by model; the generic loops below go through this loose view.
type LooseFieldBuilder = Record<string, (...args: unknown[]) => unknown> & { arg: Record<string, (...a: unknown[]) => unknown> };
type Loose = Record<string, (...args: unknown[]) => unknown>;
const loose = (x: unknown) => x as Loose;

function scalarField(t: LooseFieldBuilder, kind: KindSpec, field: FieldSpec) {
  const nullable = !field.required || !!field.readLevel;
  const description = field.values ? `One of: ${field.values.join(', ')}` : undefined;
  const type = field.type === 'int' ? 'Int' : field.type === 'timestamp' ? 'DateTime' : 'String';
  return t.field!({
    type,
    nullable,
    description,
    resolve: (r: Record<string, unknown>, _a: unknown, ctx: GraphQLContext) => visibleField(kind, field, r, ctx),
  });
}

export const campusRefs = {} as Record<KindName, unknown>;

// Posts whose context is a record are not a Prisma relation: a DataLoader per request batches them.
const contextLoaders = new WeakMap<object, Map<KindName, DataLoader<records.CampusRecord, unknown[]>>>();
function postsFor(ctx: GraphQLContext, info: GraphQLResolveInfo, kind: KindSpec) {
  const scope = executionScope(ctx, info);
  let byKind = contextLoaders.get(scope);
  if (!byKind) contextLoaders.set(scope, (byKind = new Map()));
  let loader = byKind.get(kind.name);
  if (!loader) {
    loader = new DataLoader(async (list: readonly records.CampusRecord[]) => {
      const map = await contextContent(ctx.campus, kind, [...list]);
      return list.map((r) => (map.get(r.ID) as unknown[]) ?? []);
    }, { cacheKeyFn: (r) => r.ID });
    byKind.set(kind.name, loader);
  }
  return loader;
}

// Relationships that are not Prisma relations (comments, tags, contact points) load through
// the same batched loaders REST's ?include= uses, one DataLoader per request and relation.
const relationLoaders = new WeakMap<object, Map<string, DataLoader<records.CampusRecord, unknown>>>();
function relationLoader(ctx: GraphQLContext, info: GraphQLResolveInfo, kind: KindSpec, name: string) {
  const scope = executionScope(ctx, info);
  let loaders = relationLoaders.get(scope);
  if (!loaders) relationLoaders.set(scope, (loaders = new Map()));
  const key = `${kind.name}.${name}`;
  let loader = loaders.get(key);
  if (!loader) {
    const relation = RELATIONS[kind.name][name]!;
    loader = new DataLoader(async (list: readonly records.CampusRecord[]) => {
      const map = await relation.load(ctx.campus, [...list]);
      return list.map((r) => map.get(r.ID) ?? null);
    }, { cacheKeyFn: (r) => r.ID });
    loaders.set(key, loader);
  }
  return loader;
}

const Comment = builder.prismaObject('Comment', {
  fields: (t) => ({
    databaseId: t.exposeInt('ID', { description: 'The comment\'s ID (Slate\'s)' }),
    created: t.expose('Created', { type: 'DateTime' }),
    creatorId: t.exposeInt('CreatorID', { nullable: true }),
    message: t.exposeString('Message'),
  }),
});

// Join rows: reached through lists that keep only rows whose record the caller may read.
const GroupMember = loose(builder).prismaObject!('GroupMember', {
  fields: (t: LooseFieldBuilder) => ({
    databaseId: t.exposeInt!('ID'),
    role: t.exposeString!('Role', { description: 'Member, Administrator, Owner or Founder' }),
    joined: t.expose!('Joined', { type: 'DateTime' }),
    group: t.relation!('group', { type: ref('Group') }),
    person: t.relation!('person', { type: ref('Person') }),
  }),
});

const SectionParticipant = loose(builder).prismaObject!('SectionParticipant', {
  fields: (t: LooseFieldBuilder) => ({
    databaseId: t.exposeInt!('ID'),
    role: t.exposeString!('Role', { description: 'Observer, Student, Assistant or Teacher' }),
    startDate: t.expose!('StartDate', { type: 'DateTime', nullable: true }),
    endDate: t.expose!('EndDate', { type: 'DateTime', nullable: true }),
    section: t.relation!('section', { type: ref('Section') }),
    person: t.relation!('person', { type: ref('Person') }),
  }),
});

// Comments and join rows are nodes too, readable as the records they hang on (nodes.ts).
loose(builder).nodeRef!(Comment, commentNode);
loose(builder).nodeRef!(GroupMember, groupMemberNode);
loose(builder).nodeRef!(SectionParticipant, sectionParticipantNode);

for (const kind of KIND_LIST) {
  const options = kind.model === 'content' ? { variant: kind.name } : {};
  campusRefs[kind.name] = loose(builder).prismaNode!(MODEL_NAME[kind.model], {
    ...options,
    description: `Slate's ${kind.noun} (${kind.className}), served at /${kind.prefix}`,
    id: nodeId((r: { ID: number }) => r.ID, intKey),
    // `node` finds the record as `record(id:)` does (blog posts and pages in their own class);
    // the type's read rule below then answers for it with the root field's error.
    findUnique: (id: unknown) => ({ ID: asInt(id), ...kindScope(kind) }),
    nullable: true,
    // The read rule lives on the type: wherever a record appears, the caller must be able to
    // read it at its root field. Relations below leave unreadable records out first, so this
    // only fires (with the root field's error) on a path that forgot to.
    authScopes: typeReadRule(kind),
    runScopesOnType: true,
    fields: (t: LooseFieldBuilder) => {
      const fields: Record<string, unknown> = {
        databaseId: t.exposeInt!('ID', { description: `The ${kind.noun}'s ID (Slate's; REST takes it, and \`${SINGULAR[kind.name]}(id:)\` and the mutations take it or the global \`id\`)` }),
        class: t.exposeString!('Class'),
        created: t.expose!('Created', { type: 'DateTime' }),
        creatorId: t.exposeInt!('CreatorID', { nullable: true }),
      };
      if (kind.versioned) {
        fields.modified = t.expose!('Modified', { type: 'DateTime', nullable: true });
        fields.modifierId = t.exposeInt!('ModifierID', { nullable: true });
      }
      for (const field of kind.fields) fields[gqlName(field.name)] = scalarField(t, kind, field);
      Object.assign(fields, relationFields(t, kind));
      return fields;
    },
  });
}

const ref = (name: KindName) => campusRefs[name];

function commentsField(t: LooseFieldBuilder, kind: KindSpec) {
  return t.field!({
    type: [Comment],
    description: 'Newest first',
    resolve: (r: records.CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => relationLoader(ctx, info, kind, 'Comments').load(r),
  });
}

function relationFields(t: LooseFieldBuilder, kind: KindSpec): Record<string, unknown> {
  const personList = (role: string) =>
    t.field!({
      type: [ref('Person')],
      select: (_a: unknown, _c: unknown, nested: Nested) => ({ participants: { where: { Role: role }, orderBy: { ID: 'asc' }, include: { person: nested(true) } } }),
      resolve: async (s: { participants: Array<{ person: unknown }> }, _a: unknown, ctx: GraphQLContext) =>
        (await readableOnly(KINDS.Person, s.participants, ctx, (p) => p.person)).map((p) => p.person),
    });
  // A single related record: null when the caller may not read it, as a list leaves it out.
  const one = (target: KindName, relation: string) =>
    t.field!({
      type: ref(target),
      nullable: true,
      select: (_a: unknown, _c: unknown, nested: Nested) => ({ [relation]: nested(true) }),
      resolve: (r: Record<string, unknown>, _a: unknown, ctx: GraphQLContext) => readableOrNull(KINDS[target], r[relation], ctx),
    });
  // A list of related records, or of join rows (`through` names the row's record), keeping the readable ones.
  const many = (type: unknown, target: KindName, relation: string, orderBy: unknown, through?: string) =>
    t.field!({
      type: [type],
      select: (_a: unknown, _c: unknown, nested: Nested) => ({ [relation]: { ...(through ? withRelation(nested(true), through) : selection(nested(true))), orderBy } }),
      resolve: (r: Record<string, unknown[]>, _a: unknown, ctx: GraphQLContext) =>
        readableOnly(KINDS[target], r[relation]!, ctx, through ? (row) => (row as Record<string, unknown>)[through] : undefined),
    });
  // Relations skip the records service, so its read rule is applied here: a Hidden child (or
  // parent) is left out for callers who could not read it by handle either.
  const tree = (name: KindName) => ({
    parent: one(name, 'parent'),
    // [T!]!: the t.relation this replaces was given `type: [T]` on top of the relation's own
    // list-ness, so it printed [[T!]!]! and failed whenever a child existed.
    children: t.field!({
      type: [ref(name)],
      description: 'Child records the caller may read, oldest first',
      select: (_a: unknown, _c: unknown, nested: Nested) => ({ children: { ...selection(nested(true)), orderBy: { ID: 'asc' } } }),
      resolve: (r: { children: records.CampusRecord[] }, _a: unknown, ctx: GraphQLContext) => readableOnly(kind, r.children, ctx),
    }),
  });
  switch (kind.name) {
    case 'Person':
      return {
        ...Object.fromEntries(
          ['PrimaryEmail', 'PrimaryPhone', 'PrimaryPostal'].map((name) => [
            gqlName(name),
            t.string!({
              nullable: true,
              description: 'Staff only (and the person themselves)',
              resolve: async (p: records.CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
                const viewer = await ctx.viewer();
                if (viewer.personId !== p.ID && !hasLevel(viewer.level, 'Staff')) return null;
                const point = (await relationLoader(ctx, info, kind, name).load(p)) as { Class: string; Data: string } | null;
                // As people read it (Slate's String): a postal address's lines, not its stored parts.
                return point ? pointString(point) : null;
              },
            }),
          ]),
        ),
        comments: commentsField(t, kind),
        groups: t.field!({
          type: [ref('Group')],
          description: 'Groups the caller may read',
          select: (_a: unknown, _c: unknown, nested: Nested) => ({ memberships: { orderBy: { ID: 'asc' }, include: { group: nested(true) } } }),
          resolve: async (p: { memberships: Array<{ group: unknown }> }, _a: unknown, ctx: GraphQLContext) =>
            (await readableOnly(KINDS.Group, p.memberships, ctx, (m) => m.group)).map((m) => m.group),
        }),
        groupMemberships: many(GroupMember, 'Group', 'memberships', { ID: 'asc' }, 'group'),
        sectionParticipations: many(SectionParticipant, 'Section', 'participations', { ID: 'asc' }, 'section'),
      };
    case 'Section':
      return {
        course: one('Course', 'course'),
        term: one('Term', 'term'),
        location: one('Location', 'location'),
        schedule: one('Schedule', 'schedule'),
        participants: many(SectionParticipant, 'Person', 'participants', [{ Role: 'desc' }, { ID: 'asc' }], 'person'),
        instructors: personList('Teacher'),
        students: personList('Student'),
        blogPosts: t.field!({
          type: [ref('BlogPost')],
          description: 'Blog posts whose context is this section',
          resolve: async (s: records.CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) => readableOnly(KINDS.BlogPost, await postsFor(ctx, info, kind).load(s), ctx),
        }),
      };
    case 'Course':
      return { department: one('Department', 'department'), sections: many(ref('Section'), 'Section', 'sections', { Code: 'asc' }) };
    case 'Department':
      return { courses: many(ref('Course'), 'Course', 'courses', { Code: 'asc' }) };
    case 'Schedule':
      return { sections: many(ref('Section'), 'Section', 'sections', { Code: 'asc' }) };
    case 'BlogPost':
    case 'Page':
      return {
        author: one('Person', 'author'),
        tags: t.stringList!({
          resolve: async (c: records.CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
            ((await relationLoader(ctx, info, kind, 'Tags').load(c)) as Array<{ Title: string }>).map((tag) => tag.Title),
        }),
        comments: commentsField(t, kind),
      };
    case 'Group':
      return {
        ...tree('Group'),
        members: many(GroupMember, 'Person', 'members', { ID: 'asc' }, 'person'),
        people: t.field!({
          type: [ref('Person')],
          select: (_a: unknown, _c: unknown, nested: Nested) => ({ members: { orderBy: { ID: 'asc' }, include: { person: nested(true) } } }),
          resolve: async (g: { members: Array<{ person: unknown }> }, _a: unknown, ctx: GraphQLContext) =>
            (await readableOnly(KINDS.Person, g.members, ctx, (m) => m.person)).map((m) => m.person),
        }),
      };
    case 'Location':
      return tree('Location');
    case 'Term':
      return tree('Term');
  }
}

const SortDirection = builder.enumType('SortDirection', { values: ['ASC', 'DESC'] as const });

/** Slate's browse filters as arguments of the lists they apply to (the same domain filters as REST's). */
function filterArgs(t: { arg: { string(o: object): unknown; boolean(o: object): unknown } }, kind: KindSpec): Record<string, unknown> {
  switch (kind.name) {
    case 'Section':
      return {
        term: t.arg.string({ description: 'A term (ID, handle or *current): sections of it, of the terms inside it and of those containing it' }),
        course: t.arg.string({ description: 'A course (ID, handle or code)' }),
        location: t.arg.string({ description: 'A location (ID or handle)' }),
        schedule: t.arg.string({ description: 'A schedule (ID or handle)' }),
        department: t.arg.string({ description: 'A department (ID or handle): sections of its courses' }),
        enrolledUser: t.arg.string({ description: 'Sections a person takes part in (ID, username, email or *current); needs a login' }),
      };
    case 'Group':
      return {
        topLevel: t.arg.boolean({ description: 'Only groups without a parent' }),
        query: t.arg.string({ description: 'Groups whose name contains this text' }),
      };
    default:
      return {};
  }
}

const filtersOf = (args: Record<string, unknown>): BrowseFilters => {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { term: text(args.term), course: text(args.course), location: text(args.location), schedule: text(args.schedule), department: text(args.department), enrolledUser: text(args.enrolledUser), query: text(args.query), topLevel: args.topLevel === true };
};

for (const kind of KIND_LIST) {
  const type = ref(kind.name);
  const page = builder.objectRef<{ nodes: records.CampusRecord[]; totalCount: number }>(`${kind.name}Page`).implement({
    fields: (t) => ({
      nodes: t.field({ type: [type] as never, resolve: (p) => p.nodes as never }),
      totalCount: t.exposeInt('totalCount'),
    }),
  });
  const input = builder.inputType(`${kind.name}Input`, {
    fields: (t) => {
      const out: Record<string, unknown> = {};
      for (const f of kind.fields) {
        const description = f.values ? `One of: ${f.values.join(', ')}` : undefined;
        out[gqlName(f.name)] = f.type === 'int' ? t.int({ description }) : f.type === 'timestamp' ? t.field({ type: 'DateTime', description }) : t.string({ description });
      }
      if (kind.name === 'Person') {
        out.password = t.string({ description: 'Write-only; stored as a password hash' });
        out.email = t.string({ description: 'Becomes the primary email address' });
        out.phone = t.string({ description: 'Becomes the primary phone number' });
        out.postal = t.string({ description: 'Becomes the primary postal address' });
      }
      if (kind.model === 'content') out.tags = t.stringList({ description: 'Replaces the tags (titles)' });
      return out as never;
    },
  });
  const extra: Record<string, string> = kind.name === 'Person' ? { password: 'Password', email: 'Email', phone: 'Phone', postal: 'Postal' } : {};

  builder.queryField(SINGULAR[kind.name], (t) =>
    t.field({
      type: type as never,
      nullable: true,
      description: `A ${kind.noun} by ID or handle${kind.name === 'Person' ? ' (username)' : ''}`,
      args: { id: t.arg.id({ description: ID_ARG }), handle: t.arg.string() },
      resolve: (async (_r: unknown, args: { id?: string | null; handle?: string | null }, ctx: GraphQLContext) => {
        const ident = args.id === null || args.id === undefined ? args.handle : recordId(args.id, kind);
        if (ident === null || ident === undefined) return null;
        try {
          return await records.getRecord(ctx.campus, await ctx.viewer(), kind, ident);
        } catch (err) {
          // A missing record is null, as GraphQL clients expect from a lookup.
          if ((err as { code?: string }).code === 'NOT_FOUND') return null;
          throw err;
        }
      }) as never,
    }),
  );

  builder.queryField(PLURAL[kind.name], (t) =>
    t.field({
      type: page,
      args: {
        first: t.arg.int({ description: `Page size, 0 to ${MAX_PAGE} (default: every record, at most ${BROWSE_MAX_LIMIT})` }),
        offset: t.arg.int({ description: `Records to skip, 0 to ${MAX_OFFSET}` }),
        sort: t.arg.string({ description: 'A field name, Slate spelling (e.g. LastName)' }),
        dir: t.arg({ type: SortDirection }),
        q: t.arg.string({ description: "Slate's search: words that must all appear in a title, name, handle or code; `qualifier:term` (first:, last:, title:, id:, group: ...); quotes; mode:or" }),
        ...filterArgs(t, kind),
        ...Object.fromEntries(
          kind.fields.filter((f) => f.ref).map((f) => [gqlName(f.name), t.arg.id({ description: `Only records whose ${f.name} is this ID (Slate's, or the ${KINDS[f.ref!].noun}'s global \`id\`)` })]),
        ),
      },
      resolve: async (_r, args, ctx) => {
        const first = pageArgument('first', args.first, MAX_PAGE);
        const offset = pageArgument('offset', args.offset, MAX_OFFSET);
        const where: Record<string, unknown> = {};
        for (const f of kind.fields.filter((field) => field.ref)) {
          const value = (args as Record<string, string | null | undefined>)[gqlName(f.name)];
          if (value !== null && value !== undefined) where[f.name] = refCondition(value, KINDS[f.ref!]);
        }
        // The service speaks Slate's paging: limit 0 (or none) is every record, and an offset
        // applies only with a limit. GraphQL's `first: 0` is no records (only the total), and an
        // offset alone skips that many of all of them.
        const limit = first === 0 ? 1 : (first ?? (offset ? ALL : undefined));
        const { records: nodes, total } = await records.browseRecords(ctx.campus, await ctx.viewer(), kind, {
          where,
          filters: filtersOf(args as Record<string, unknown>),
          limit,
          offset,
          sort: args.sort ?? undefined,
          dir: args.dir ?? 'ASC',
          q: args.q ?? undefined,
        });
        return { nodes: first === 0 ? [] : nodes, totalCount: total };
      },
    }),
  );

  const Name = kind.name;
  builder.mutationFields((t) => ({
    [`create${Name}`]: t.field({
      type: type as never,
      args: { input: t.arg({ type: input, required: true }) },
      resolve: async (_r, { input: values }, ctx) =>
        (await records.createRecord(ctx.campus, await ctx.viewer(), kind, toRecordInput(kind, values as Record<string, unknown>, extra))) as never,
    }),
    [`update${Name}`]: t.field({
      type: type as never,
      args: { id: t.arg.id({ required: true, description: ID_ARG }), input: t.arg({ type: input, required: true }) },
      resolve: async (_r, { id, input: values }, ctx) =>
        (await records.editRecord(ctx.campus, await ctx.viewer(), kind, recordId(id, kind), toRecordInput(kind, values as Record<string, unknown>, extra))) as never,
    }),
    [`comment${Name}`]: t.field({
      type: Comment,
      description: `Adds a comment to a ${kind.noun} (any logged-in user who can read it)`,
      args: { id: t.arg.id({ required: true, description: ID_ARG }), message: t.arg.string({ required: true }) },
      resolve: async (_r, { id, message }, ctx) => addComment(ctx.campus, await ctx.viewer(), kind, recordId(id, kind), message),
    }),
    [`delete${Name}`]: t.field({
      type: type as never,
      description: 'Deletes the record and returns it as it was',
      args: { id: t.arg.id({ required: true, description: ID_ARG }) },
      resolve: async (_r, { id }, ctx) => (await records.deleteRecord(ctx.campus, await ctx.viewer(), kind, recordId(id, kind))) as never,
    }),
  }));
}

export { KINDS };
