// The campus REST paths (rest-compat/campus/), generated from the kinds table
// (src/campus/kinds.ts) as the routes are: one record schema and one route set per kind, then
// the extra routes (members, students, section participants, login). Slate's habits show here:
// a failed validation is a 200 with `success: false`, a login refusal carries `loginRequired`.
import { KIND_LIST, type FieldSpec, type KindSpec } from '../campus/kinds.ts';
import type { Operation, Parameter, PathItem, Paths, Response, Schema } from './types.ts';
import { json, pathParam, ref } from './types.ts';

const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });

function fieldSchema(field: FieldSpec): Schema {
  switch (field.type) {
    case 'int':
      return { type: ['integer', 'null'] };
    case 'timestamp':
      return { type: ['integer', 'null'], description: 'Unix seconds.' };
    case 'date':
      return { type: ['string', 'null'], description: 'YYYY-MM-DD.' };
    case 'enum':
      return { enum: [...(field.values ?? []), null] };
    default:
      return { type: ['string', 'null'] };
  }
}

/** A record as recordJson writes it; `include=` adds named relationships and computed fields. */
function recordSchema(kind: KindSpec): Schema {
  const properties: Record<string, Schema> = {
    ID: { type: 'integer' },
    Class: { type: 'string', description: `${kind.className}, or a subclass` },
    Created: { type: 'integer', description: 'Unix seconds.' },
    CreatorID: { type: ['integer', 'null'] },
  };
  const required = ['ID', 'Class', 'Created', 'CreatorID'];
  if (kind.versioned) {
    Object.assign(properties, { RevisionID: { type: 'null' }, Modified: nullable({ type: 'integer' }), ModifierID: { type: ['integer', 'null'] } });
    required.push('RevisionID', 'Modified', 'ModifierID');
  }
  for (const field of kind.fields) {
    properties[field.name] = field.readLevel ? { ...fieldSchema(field), description: `Shown to ${field.readLevel} and above, and to the person themselves.` } : fieldSchema(field);
    if (!field.readLevel) required.push(field.name);
  }
  return {
    type: 'object',
    description: `A ${kind.noun}. Other keys are what \`include=\` asked for.`,
    properties,
    required,
    additionalProperties: true,
  };
}

const WRITE_ONLY: Partial<Record<KindSpec['name'], Record<string, Schema>>> = {
  Person: {
    Password: { type: 'string', minLength: 8 },
    Email: { type: 'string' },
    Phone: { type: 'string' },
    Postal: { type: 'string' },
    groupIDs: { description: 'IDs or handles, a list or comma-separated: replaces memberships.', anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'integer'] } }] },
  },
  BlogPost: { tags: { description: 'Tag titles: replaces the tags.', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
  Page: { tags: { description: 'Tag titles: replaces the tags.', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
};

/** The fields a create or edit takes (form values are strings; JSON may send numbers). */
function inputSchema(kind: KindSpec): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of kind.fields) {
    properties[field.name] = field.type === 'int' || field.type === 'timestamp' ? { type: ['integer', 'string', 'null'] } : { type: ['string', 'null'] };
    for (const alias of field.aliases ?? []) properties[alias] = { ...properties[field.name], description: `Read as ${field.name}.` };
  }
  Object.assign(properties, WRITE_ONLY[kind.name] ?? {});
  properties._session = { type: 'string', description: 'A session token, for a form that cannot send Authorization.' };
  return { type: 'object', properties, additionalProperties: true };
}

export function campusSchemas(): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const kind of KIND_LIST) {
    schemas[kind.name] = recordSchema(kind);
    schemas[`${kind.name}Input`] = inputSchema(kind);
  }
  Object.assign(schemas, {
    CampusFailure: {
      type: 'object',
      description: 'A refusal, or a 200 with success false (unknown sort field, search syntax).',
      properties: { success: { const: false }, message: { type: 'string' } },
      required: ['success', 'message'],
    },
    CampusValidationFailure: {
      type: 'object',
      description: 'A record that fails validation: 200, as Slate answers.',
      properties: { success: { const: false }, data: { type: 'object' }, validationErrors: { type: 'object', additionalProperties: { type: 'string' } }, message: { type: 'string' } },
      required: ['success', 'data', 'validationErrors', 'message'],
      additionalProperties: false,
    },
    CampusLoginRequired: {
      type: 'object',
      properties: { success: { const: false }, loginRequired: { const: true }, requestContainer: { const: '_LOGIN' }, error: { type: 'string' } },
      required: ['success', 'loginRequired', 'requestContainer', 'error'],
      additionalProperties: false,
    },
    CampusLink: {
      type: 'object',
      description: 'A membership, participation or comment row: its columns, timestamps as Unix seconds.',
      properties: { ID: { type: 'integer' } },
      additionalProperties: true,
    },
    UserSession: {
      type: 'object',
      properties: {
        ID: { type: 'integer' },
        Class: { const: 'UserSession' },
        Created: { type: 'integer' },
        Handle: { type: 'string', description: 'The session token: send it as `Authorization: Token <Handle>`.' },
        LastRequest: { type: 'integer', description: 'GET /login only.' },
        PersonID: { type: 'integer' },
      },
      required: ['ID', 'Class', 'Created', 'Handle', 'PersonID'],
      additionalProperties: false,
    },
    LoginForm: {
      type: 'object',
      description: 'Form fields `_LOGIN[username]` and `_LOGIN[password]` (or the same nested in JSON). The username may be an email address.',
      properties: { _LOGIN: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } }, required: ['username', 'password'] } },
      required: ['_LOGIN'],
    },
  });
  return schemas;
}

const one = (data: Schema, success: boolean | null = true): Schema => ({
  type: 'object',
  properties: { ...(success === null ? {} : { success: { const: success } }), data },
  required: [...(success === null ? [] : ['success']), 'data'],
});

const envelope = (item: Schema, extra: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  description: 'Slate\'s browse envelope; the records a filter named (Term, Course, Location, EnrolledUser) are added by name.',
  properties: {
    success: { const: true },
    data: { type: 'array', items: item },
    conditions: { anyOf: [{ type: 'array', maxItems: 0 }, { type: 'object' }] },
    total: { type: 'integer' },
    limit: { anyOf: [{ type: 'integer' }, { const: false }] },
    offset: { anyOf: [{ type: 'integer' }, { const: false }] },
    query: { type: 'string', description: 'The `q` given.' },
    ...extra,
  },
  required: ['success', 'data', 'conditions', 'total', 'limit', 'offset'],
});

const failure = (description: string): Response => json(ref('CampusFailure'), description);
const refusals: Record<string, Response> = {
  '400': failure('A malformed request: body not JSON or a form, nested too deeply, parameters too long.'),
  '401': json(ref('CampusLoginRequired'), 'A login is needed.'),
  '403': failure('"You do not have authorization to access this resource".'),
  '404': failure('"Record not found", "profile not found" (a disabled person), "<param> not found", "Page not found".'),
  '413': failure('The body is over 1 MB.'),
  '415': failure('The body is neither JSON nor a form.'),
};
const pick = (...codes: string[]) => Object.fromEntries(codes.map((c) => [c, refusals[c]!]));

// A token in the header or the query, or none: public reads answer anonymous callers.
const SECURITY: Array<Record<string, string[]>> = [{ CampusToken: [] }, { CampusSession: [] }, {}];
const formOrJson = (schema: Schema, required = true) => ({
  required,
  content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } },
});

const include: Parameter = {
  name: 'include',
  in: 'query',
  schema: { type: 'string' },
  description: 'Comma-separated relationships and computed fields, dot paths nest (`Course.Sections`), `*` every one; `include[]=` lists work too.',
};
const browseParams: Parameter[] = [
  { name: 'limit', in: 'query', schema: { type: 'string', pattern: '^\\d+$' }, description: 'At most 1000 are served; 0 or none: no limit (blog posts: 25).' },
  { name: 'offset', in: 'query', schema: { type: 'string', pattern: '^\\d+$' } },
  { name: 'sort', in: 'query', schema: { type: 'string' }, description: 'A field; unknown: 200 "Invalid sort field".' },
  { name: 'dir', in: 'query', schema: { type: 'string' }, description: 'ASC (default) or anything else for descending.' },
  { name: 'q', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Slate\'s search syntax: terms, "quoted words", qualifier:term, mode:or.' },
  include,
];
const FILTERS: Partial<Record<KindSpec['name'], string[]>> = {
  Person: ['status'],
  Section: ['term', 'course', 'location', 'schedule', 'department', 'enrolled_user'],
  BlogPost: ['AuthorID'],
  Page: ['AuthorID'],
  Group: ['parentGroup', 'query'],
};

function kindPaths(kind: KindSpec): Paths {
  const base = `/${kind.prefix}`;
  const record = ref(kind.name);
  const input = ref(`${kind.name}Input`);
  const ident = pathParam('ident', { type: 'string' }, kind.name === 'Person' ? 'ID, Username, or an email address of the person.' : 'ID, Handle' + (kind.name === 'Course' || kind.name === 'Section' ? ', or Code.' : '.'));
  const op = (name: string, o: Omit<Operation, 'operationId' | 'tags' | 'security'>): Operation => ({ operationId: `${kind.prefix}_${name}`, tags: [`campus ${kind.prefix}`], security: SECURITY, ...o });
  const saved = anyOfSaved(record);
  const filters = (FILTERS[kind.name] ?? []).map((name): Parameter => ({ name, in: 'query', schema: { type: 'string', maxLength: 200 } }));
  const browse = (method: string) =>
    op(`browse${method}`, {
      summary: `Browse ${kind.prefix}`,
      parameters: [...browseParams, ...filters],
      responses: { '200': json({ anyOf: [envelope(record), ref('CampusFailure')] }, 'The page, or success false for a bad sort or search.'), ...pick('400', '401', '403', '404') },
    });
  const read = (method: string) =>
    op(`read${method}`, { summary: `One ${kind.noun}`, parameters: [ident, include], responses: { '200': json(one(record), 'The record.'), ...pick('401', '403', '404') } });
  const batchResult = (validation: boolean): Schema => ({
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      data: { type: 'array', items: record },
      failed: { type: 'array', items: { type: 'object', properties: { record: {}, ...(validation ? { validationErrors: { type: 'object' } } : {}), errors: { type: 'string' } }, required: ['record'] } },
      ...(validation ? { message: { type: ['string', 'null'] } } : {}),
    },
    required: ['success', 'data', 'failed', ...(validation ? ['message'] : [])],
  });
  return {
    [base]: { get: browse('Get'), post: browse('Post') },
    [`${base}/create`]: {
      get: op('createForm', { summary: `The empty ${kind.noun} form (success false)`, responses: { '200': json(one({ type: 'object', properties: { ID: { type: 'null' }, Created: { const: 'CURRENT_TIMESTAMP' } }, required: ['ID', 'Created'] }, false), 'The template.'), ...pick('401', '403') } }),
      post: op('create', { summary: `Create a ${kind.noun}`, parameters: [include], requestBody: formOrJson(input), responses: { '200': json(saved, 'Created, or the validation errors.'), ...pick('400', '401', '403', '413', '415') } }),
    },
    [`${base}/save`]: {
      post: op('save', {
        summary: `Create or edit several ${kind.prefix} (items with an ID are edited)`,
        requestBody: formOrJson({ type: 'object', properties: { data: { type: 'array', items: input, maxItems: 1000 } }, required: ['data'] }),
        responses: { '200': json(batchResult(true), 'What was saved and what failed.'), ...pick('400', '401', '404', '413', '415') },
      }),
    },
    [`${base}/destroy`]: {
      post: op('destroy', {
        summary: `Delete several ${kind.prefix}`,
        requestBody: formOrJson({ type: 'object', properties: { data: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'object', properties: { ID: {} } }] }, maxItems: 1000 } }, required: ['data'] }),
        responses: { '200': json(batchResult(false), 'What was deleted and what failed ("ID missing", "ID not found", "Write access denied").'), ...pick('400', '401', '409', '413', '415') },
      }),
    },
    [`${base}/{ident}`]: { get: read('Get'), post: read('Post') },
    [`${base}/{ident}/edit`]: {
      get: op('editForm', { summary: `The ${kind.noun}'s edit form (success false)`, parameters: [ident, include], responses: { '200': json(one(record, false), 'The record.'), ...pick('401', '403', '404') } }),
      post: op('edit', { summary: `Change a ${kind.noun} (only the fields sent)`, parameters: [ident, include], requestBody: formOrJson(input), responses: { '200': json(saved, 'Saved, or the validation errors.'), ...pick('400', '401', '403', '404', '413', '415') } }),
    },
    [`${base}/{ident}/delete`]: {
      get: op('deleteQuestion', {
        summary: 'Slate\'s confirmation step: deletes nothing',
        parameters: [ident],
        responses: { '200': json({ type: 'object', properties: { question: { type: 'string' }, data: record }, required: ['question', 'data'] }, 'The question.'), ...pick('401', '403', '404') },
      }),
      post: op('delete', { summary: `Delete a ${kind.noun}`, parameters: [ident], responses: { '200': json(one(record), 'The record as it was.'), ...pick('401', '403', '404'), '409': failure('Other records still refer to it.') } }),
    },
    [`${base}/{ident}/comment`]: {
      post: op('comment', {
        summary: `Comment on a ${kind.noun}`,
        parameters: [ident],
        requestBody: formOrJson({ type: 'object', properties: { Message: { type: 'string' } }, required: ['Message'] }),
        responses: { '200': json({ anyOf: [one(ref('CampusLink')), ref('CampusValidationFailure'), ref('CampusFailure')] }, 'The comment.'), ...pick('400', '401', '403', '404', '413', '415') },
      }),
    },
  };
}

const anyOfSaved = (record: Schema): Schema => ({ anyOf: [one(record), ref('CampusValidationFailure'), ref('CampusFailure')] });

function extraPaths(): Paths {
  const op = (operationId: string, o: Omit<Operation, 'operationId' | 'tags' | 'security'>, tag = 'campus extras'): Operation => ({ operationId, tags: [tag], security: SECURITY, ...o });
  const ident = pathParam('ident', { type: 'string' });
  const session = ref('UserSession');
  const logout: PathItem = {
    get: op('logoutGet', { summary: 'End the session of the token sent', responses: { '200': json({ type: 'object', properties: { success: { const: true } }, required: ['success'] }, 'Done.') } }, 'campus login'),
  };
  logout.post = { ...logout.get!, operationId: 'logoutPost' };
  const logoutAlias = { get: { ...logout.get!, operationId: 'logoutShortGet' }, post: { ...logout.get!, operationId: 'logoutShortPost' } };
  return {
    '/groups/{ident}/members': {
      get: op('groupMembers', {
        summary: 'People in the group and the groups inside it',
        parameters: [ident, include],
        responses: { '200': json({ type: 'object', properties: { success: { const: true }, data: { type: 'array', items: ref('Person') }, group: ref('Group') }, required: ['success', 'data', 'group'] }, 'The members.'), ...pick('401', '403', '404') },
      }),
    },
    '/sections/{ident}/students': {
      get: op('sectionStudents', {
        summary: 'The section\'s students (no `success` key, as Slate)',
        parameters: [ident, include, { name: 'inactive', in: 'query', schema: { type: 'string' }, description: '1: participations not started or ended too.' }],
        responses: { '200': json({ type: 'object', properties: { data: { type: 'array', items: ref('Person') } }, required: ['data'] }, 'The students.'), ...pick('401', '403', '404') },
      }),
    },
    '/section-participants': {
      get: op('browseParticipants', {
        summary: 'Browse participations (Staff)',
        parameters: [...['course_section', 'term', 'student', 'role', 'limit', 'offset'].map((name): Parameter => ({ name, in: 'query', schema: { type: 'string' } })), include],
        responses: { '200': json(envelope(ref('CampusLink')), 'The participations.'), ...pick('400', '401', '403', '404') },
      }),
    },
    '/section-participants/create': {
      post: op('createParticipant', {
        summary: 'Add a person to a section (a duplicate pair updates the role)',
        requestBody: formOrJson({ type: 'object', properties: { CourseSectionID: {}, PersonID: {}, Role: { type: 'string' } }, required: ['CourseSectionID', 'PersonID', 'Role'] }),
        responses: { '200': json({ anyOf: [one(ref('CampusLink')), ref('CampusFailure')] }, 'The participation.'), ...pick('400', '401', '403', '404', '413', '415') },
      }),
    },
    '/login': {
      get: op('session', { summary: 'The caller\'s session', responses: { '200': json(one(session), 'The session.'), '401': refusals['401']! } }, 'campus login'),
      post: op(
        'login',
        {
          summary: 'Log in: the session token is `data.Handle`',
          requestBody: formOrJson(ref('LoginForm')),
          responses: {
            '200': json(one(session), 'Logged in.'),
            '401': json(ref('CampusLoginRequired'), '"The username or password you entered was incorrect."'),
            '429': { ...failure('"Too many login attempts, try again in <n> seconds".'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
            ...pick('400', '413', '415'),
          },
        },
        'campus login',
      ),
    },
    '/login/logout': logout,
    '/logout': logoutAlias,
  };
}

export function campusPaths(): Paths {
  return Object.assign({}, ...KIND_LIST.map(kindPaths), extraPaths());
}
