// The campus kinds as the screens know them, in one table (as the server declares them in
// src/campus/kinds.ts): the route, the names, who may browse and write (mirrored only to leave
// out controls the server would refuse), the list's columns, the form's fields and the
// documents that read and write each kind.
import { query } from '../lib/graphql.ts';
import { LEVELS, type Level } from './levels.ts';
import * as Op from './operations.ts';
import type { CampusKind } from './operations.ts';
import * as CG from './course-groupings.ts';

export type FieldType = 'text' | 'textarea' | 'int' | 'date' | 'datetime' | 'choice' | 'ref' | 'tags' | 'email' | 'tel';
export type RefKind = 'Course' | 'Term' | 'Location' | 'Group' | 'Department' | 'Schedule';

export interface FormField {
  /** The GraphQL input field. */
  name: string;
  /** Slate's field name: the key of extensions.validationErrors. */
  slate: string;
  label: string;
  type: FieldType;
  required?: boolean;
  choices?: readonly string[];
  ref?: RefKind;
  hint?: string;
}

export interface ListPage {
  total: number;
  rows: Array<{ id: number; title: string; cells: string[] }>;
}

/** A form's values: strings, as inputs hold them ('' for none). */
export type Values = Record<string, string>;

export interface Editable {
  title: string;
  values: Values;
  /** Blog posts: their author may edit them at the create level. */
  authorId?: number | null;
}

export interface KindDef {
  route: string;
  kind: CampusKind;
  /** "course section": in sentences. */
  noun: string;
  /** "Sections": headings and navigation. */
  plural: string;
  /** Level needed to browse the list; null: anyone signed in. */
  browse: Level | null;
  /** Level needed to create; edit and delete need `write` (or authorship, see Editable). */
  create: Level;
  write: Level;
  /** The list's columns after the first (the record's title, linked). */
  columns: string[];
  list(vars: { q?: string; first: number; offset: number }): Promise<ListPage>;
  fields: FormField[];
  editable(id: number): Promise<Editable | null>;
  createRecord(input: Record<string, unknown>): Promise<number>;
  updateRecord(id: number, input: Record<string, unknown>): Promise<void>;
  deleteRecord(id: number): Promise<void>;
  /** false: checks cannot be linked to this kind (no link column), so its page shows none. */
  checkLinks?: false;
}

const STATUSES = ['Live', 'Hidden', 'Deleted'] as const;
const status: FormField = { name: 'status', slate: 'Status', label: 'Status', type: 'choice', choices: STATUSES };
const handle: FormField = { name: 'handle', slate: 'Handle', label: 'Handle', type: 'text', hint: 'Made from the title when left empty.' };

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const dateOnly = (v: string | null | undefined) => (v ? v.slice(0, 10) : '');
/** An ISO timestamp as a datetime-local input holds it (the reader's time zone). */
const localDateTime = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
/** A section as people name it: its code and title ("MATH-001 · Algebra"). */
export const sectionTitle = (s: { databaseId: number; code: string | null; title: string | null }) => [s.code, s.title].filter(Boolean).join(' · ') || `Section ${s.databaseId}`;
export const fullName = (p: { firstName: string; lastName: string } | null | undefined) => (p ? `${p.firstName} ${p.lastName}`.trim() : '');

const contentFields: FormField[] = [
  { name: 'title', slate: 'Title', label: 'Title', type: 'text', required: true },
  handle,
  status,
  { name: 'visibility', slate: 'Visibility', label: 'Visibility', type: 'choice', choices: ['Public', 'Private'] },
  { name: 'published', slate: 'Published', label: 'Published', type: 'datetime', hint: 'Empty: published now.' },
  { name: 'authorId', slate: 'AuthorID', label: 'Author (person ID)', type: 'int' },
  { name: 'tags', slate: 'Tags', label: 'Tags', type: 'tags', hint: 'Separated by commas.' },
];

type ContentRecord = Op.BlogPostRecord | Op.PageRecord;
const contentValues = (r: ContentRecord): Editable => ({
  title: r.title,
  authorId: r.authorId,
  values: {
    title: r.title,
    handle: str(r.handle),
    status: str(r.status),
    visibility: str(r.visibility),
    published: localDateTime(r.published),
    authorId: str(r.authorId),
    tags: r.tags.join(', '),
  },
});
type ContentRow = { databaseId: number; title: string; handle: string | null; status: string | null; visibility: string | null; published: string | null; author: { firstName: string; lastName: string } | null };
const contentRows = (nodes: ContentRow[]) =>
  nodes.map((n) => ({ id: n.databaseId, title: n.title, cells: [fullName(n.author), n.published ? new Date(n.published).toLocaleDateString() : '', str(n.status), str(n.visibility)] }));

export const KINDS: KindDef[] = [
  {
    route: 'people',
    kind: 'Person',
    noun: 'person',
    plural: 'People',
    browse: 'User',
    create: 'Staff',
    write: 'Staff',
    columns: ['Username', 'Account level'],
    async list(vars) {
      const { people } = await query(Op.PEOPLE, vars);
      return { total: people.totalCount, rows: people.nodes.map((n) => ({ id: n.databaseId, title: `${n.firstName} ${n.lastName}`, cells: [str(n.username), str(n.accountLevel)] })) };
    },
    fields: [
      { name: 'firstName', slate: 'FirstName', label: 'First name', type: 'text', required: true },
      { name: 'middleName', slate: 'MiddleName', label: 'Middle name', type: 'text' },
      { name: 'lastName', slate: 'LastName', label: 'Last name', type: 'text', required: true },
      { name: 'username', slate: 'Username', label: 'Username', type: 'text' },
      { name: 'accountLevel', slate: 'AccountLevel', label: 'Account level', type: 'choice', choices: LEVELS },
      { name: 'gender', slate: 'Gender', label: 'Gender', type: 'choice', choices: ['Male', 'Female'] },
      { name: 'birthDate', slate: 'BirthDate', label: 'Birth date', type: 'date' },
      { name: 'email', slate: 'Email', label: 'Email address', type: 'email' },
      { name: 'phone', slate: 'Phone', label: 'Phone number', type: 'tel' },
      { name: 'postal', slate: 'Postal', label: 'Postal address', type: 'text' },
      { name: 'location', slate: 'Location', label: 'Location', type: 'text', hint: 'An address or zip code.' },
      { name: 'about', slate: 'About', label: 'About', type: 'textarea' },
    ],
    async editable(id) {
      const { person: p } = await query(Op.PERSON, { id });
      if (!p) return null;
      return {
        title: `${p.firstName} ${p.lastName}`,
        values: {
          firstName: p.firstName, middleName: str(p.middleName), lastName: p.lastName, username: str(p.username), accountLevel: str(p.accountLevel), gender: str(p.gender),
          birthDate: dateOnly(p.birthDate), email: str(p.primaryEmail), phone: str(p.primaryPhone), postal: str(p.primaryPostal), location: str(p.location), about: str(p.about),
        },
      };
    },
    createRecord: async (input) => (await query(Op.CREATE_PERSON, { input })).createPerson.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_PERSON, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_PERSON, { id })),
  },
  {
    route: 'sections',
    kind: 'Section',
    noun: 'course section',
    plural: 'Sections',
    browse: null,
    create: 'Staff',
    write: 'Staff',
    columns: ['Course', 'Term', 'Students', 'Status'],
    async list(vars) {
      const { sections } = await query(Op.SECTIONS, vars);
      return {
        total: sections.totalCount,
        rows: sections.nodes.map((n) => ({ id: n.databaseId, title: sectionTitle(n), cells: [str(n.course?.title), str(n.term?.title), String(n.studentsCount), str(n.status)] })),
      };
    },
    fields: [
      { name: 'courseId', slate: 'CourseID', label: 'Course', type: 'ref', ref: 'Course', required: true },
      { name: 'code', slate: 'Code', label: 'Code', type: 'text' },
      { name: 'title', slate: 'Title', label: 'Title', type: 'text' },
      handle,
      status,
      { name: 'termId', slate: 'TermID', label: 'Term', type: 'ref', ref: 'Term' },
      { name: 'locationId', slate: 'LocationID', label: 'Location', type: 'ref', ref: 'Location' },
      { name: 'scheduleId', slate: 'ScheduleID', label: 'Schedule', type: 'ref', ref: 'Schedule' },
      { name: 'studentsCapacity', slate: 'StudentsCapacity', label: 'Students capacity', type: 'int' },
      { name: 'notes', slate: 'Notes', label: 'Notes', type: 'textarea' },
    ],
    async editable(id) {
      const { section: s } = await query(Op.SECTION, { id });
      if (!s) return null;
      return {
        title: sectionTitle(s),
        values: { courseId: str(s.courseId), code: str(s.code), title: str(s.title), handle: str(s.handle), status: str(s.status), termId: str(s.termId), locationId: str(s.locationId), scheduleId: str(s.scheduleId), studentsCapacity: str(s.studentsCapacity), notes: str(s.notes) },
      };
    },
    createRecord: async (input) => (await query(Op.CREATE_SECTION, { input })).createSection.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_SECTION, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_SECTION, { id })),
  },
  {
    route: 'courses',
    kind: 'Course',
    noun: 'course',
    plural: 'Courses',
    browse: null,
    create: 'Staff',
    write: 'Staff',
    columns: ['Code', 'Status'],
    async list(vars) {
      const { courses } = await query(Op.COURSES, vars);
      return { total: courses.totalCount, rows: courses.nodes.map((n) => ({ id: n.databaseId, title: n.title, cells: [n.code, str(n.status)] })) };
    },
    fields: [
      { name: 'title', slate: 'Title', label: 'Title', type: 'text', required: true },
      { name: 'code', slate: 'Code', label: 'Code', type: 'text', required: true },
      handle,
      status,
      { name: 'description', slate: 'Description', label: 'Description', type: 'textarea' },
      { name: 'prerequisites', slate: 'Prerequisites', label: 'Prerequisites', type: 'textarea' },
      { name: 'departmentId', slate: 'DepartmentID', label: 'Department', type: 'ref', ref: 'Department' },
    ],
    async editable(id) {
      const { course: c } = await query(Op.COURSE, { id });
      if (!c) return null;
      return {
        title: c.title,
        values: { title: c.title, code: c.code, handle: str(c.handle), status: str(c.status), description: str(c.description), prerequisites: str(c.prerequisites), departmentId: str(c.departmentId) },
      };
    },
    createRecord: async (input) => (await query(Op.CREATE_COURSE, { input })).createCourse.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_COURSE, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_COURSE, { id })),
  },
  // Slate's RecordsRequestHandler defaults: lists for Staff, a Live record for anyone, writes
  // for Staff. No check can be linked to either (the link table has no column for them).
  {
    route: 'departments',
    kind: 'Department',
    noun: 'course department',
    plural: 'Departments',
    browse: 'Staff',
    create: 'Staff',
    write: 'Staff',
    checkLinks: false,
    columns: ['Code', 'Status'],
    async list(vars) {
      const { departments } = await query(CG.DEPARTMENTS, vars);
      return { total: departments.totalCount, rows: departments.nodes.map((n) => ({ id: n.databaseId, title: n.title, cells: [str(n.code), str(n.status)] })) };
    },
    fields: [
      { name: 'title', slate: 'Title', label: 'Title', type: 'text', required: true },
      { name: 'code', slate: 'Code', label: 'Code', type: 'text', hint: 'Optional; unique among departments.' },
      handle,
      status,
      { name: 'description', slate: 'Description', label: 'Description', type: 'textarea' },
    ],
    async editable(id) {
      const { department: d } = await query(CG.DEPARTMENT, { id });
      if (!d) return null;
      return { title: d.title, values: { title: d.title, code: str(d.code), handle: str(d.handle), status: str(d.status), description: str(d.description) } };
    },
    createRecord: async (input) => (await query(CG.CREATE_DEPARTMENT, { input })).createDepartment.databaseId,
    updateRecord: async (id, input) => void (await query(CG.UPDATE_DEPARTMENT, { id, input })),
    deleteRecord: async (id) => void (await query(CG.DELETE_DEPARTMENT, { id })),
  },
  {
    route: 'schedules',
    kind: 'Schedule',
    noun: 'course schedule',
    plural: 'Schedules',
    browse: 'Staff',
    create: 'Staff',
    write: 'Staff',
    checkLinks: false,
    columns: ['Handle', 'Status'],
    async list(vars) {
      const { schedules } = await query(CG.SCHEDULES, vars);
      return { total: schedules.totalCount, rows: schedules.nodes.map((n) => ({ id: n.databaseId, title: CG.scheduleTitle(n), cells: [str(n.handle), str(n.status)] })) };
    },
    fields: [
      // Slate's Schedule: the title is optional, the handle keeps its case.
      { name: 'title', slate: 'Title', label: 'Title', type: 'text' },
      { ...handle, hint: 'Made from the title without spaces when left empty (“Block A” → BlockA).' },
      status,
      { name: 'description', slate: 'Description', label: 'Description', type: 'textarea' },
    ],
    async editable(id) {
      const { schedule: s } = await query(CG.SCHEDULE, { id });
      if (!s) return null;
      return { title: CG.scheduleTitle(s), values: { title: str(s.title), handle: str(s.handle), status: str(s.status), description: str(s.description) } };
    },
    createRecord: async (input) => (await query(CG.CREATE_SCHEDULE, { input })).createSchedule.databaseId,
    updateRecord: async (id, input) => void (await query(CG.UPDATE_SCHEDULE, { id, input })),
    deleteRecord: async (id) => void (await query(CG.DELETE_SCHEDULE, { id })),
  },
  {
    route: 'terms',
    kind: 'Term',
    noun: 'term',
    plural: 'Terms',
    browse: 'Staff',
    create: 'Staff',
    write: 'Staff',
    columns: ['Starts', 'Ends', 'Status'],
    async list(vars) {
      const { terms } = await query(Op.TERMS, vars);
      return { total: terms.totalCount, rows: terms.nodes.map((n) => ({ id: n.databaseId, title: n.title, cells: [str(n.starDate), str(n.endDate), str(n.status)] })) };
    },
    fields: [
      { name: 'title', slate: 'Title', label: 'Title', type: 'text', required: true },
      handle,
      status,
      // Slate spells the column StarDate.
      { name: 'starDate', slate: 'StarDate', label: 'Start date', type: 'date' },
      { name: 'endDate', slate: 'EndDate', label: 'End date', type: 'date' },
      { name: 'parentId', slate: 'ParentID', label: 'Inside term', type: 'ref', ref: 'Term' },
    ],
    async editable(id) {
      const { term: t } = await query(Op.TERM, { id });
      if (!t) return null;
      return { title: t.title, values: { title: t.title, handle: str(t.handle), status: str(t.status), starDate: dateOnly(t.starDate), endDate: dateOnly(t.endDate), parentId: str(t.parentId) } };
    },
    createRecord: async (input) => (await query(Op.CREATE_TERM, { input })).createTerm.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_TERM, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_TERM, { id })),
  },
  {
    route: 'locations',
    kind: 'Location',
    noun: 'location',
    plural: 'Locations',
    browse: 'Staff',
    create: 'Staff',
    write: 'Staff',
    columns: ['Inside', 'Status'],
    async list(vars) {
      const { locations } = await query(Op.LOCATIONS, vars);
      return { total: locations.totalCount, rows: locations.nodes.map((n) => ({ id: n.databaseId, title: n.title, cells: [str(n.parent?.title), str(n.status)] })) };
    },
    fields: [
      { name: 'title', slate: 'Title', label: 'Title', type: 'text', required: true },
      handle,
      status,
      { name: 'parentId', slate: 'ParentID', label: 'Inside location', type: 'ref', ref: 'Location' },
      { name: 'description', slate: 'Description', label: 'Description', type: 'textarea' },
    ],
    async editable(id) {
      const { location: l } = await query(Op.LOCATION, { id });
      if (!l) return null;
      return { title: l.title, values: { title: l.title, handle: str(l.handle), status: str(l.status), parentId: str(l.parentId), description: str(l.description) } };
    },
    createRecord: async (input) => (await query(Op.CREATE_LOCATION, { input })).createLocation.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_LOCATION, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_LOCATION, { id })),
  },
  {
    route: 'groups',
    kind: 'Group',
    noun: 'group',
    plural: 'Groups',
    browse: 'Staff',
    create: 'Staff',
    write: 'Staff',
    columns: ['Path', 'Population', 'Status'],
    async list(vars) {
      const { groups } = await query(Op.GROUPS, vars);
      return { total: groups.totalCount, rows: groups.nodes.map((n) => ({ id: n.databaseId, title: n.name, cells: [n.fullPath, String(n.population), str(n.status)] })) };
    },
    fields: [
      { name: 'name', slate: 'Name', label: 'Name', type: 'text', required: true },
      handle,
      status,
      { name: 'parentId', slate: 'ParentID', label: 'Inside group', type: 'ref', ref: 'Group' },
      { name: 'founded', slate: 'Founded', label: 'Founded', type: 'date' },
      { name: 'data', slate: 'Data', label: 'Data', type: 'textarea' },
    ],
    async editable(id) {
      const { group: g } = await query(Op.GROUP, { id });
      if (!g) return null;
      return { title: g.name, values: { name: g.name, handle: str(g.handle), status: str(g.status), parentId: str(g.parentId), founded: dateOnly(g.founded), data: str(g.data) } };
    },
    createRecord: async (input) => (await query(Op.CREATE_GROUP, { input })).createGroup.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_GROUP, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_GROUP, { id })),
  },
  {
    route: 'blog',
    kind: 'BlogPost',
    noun: 'blog post',
    plural: 'Blog posts',
    browse: null,
    // Slate lets any user write a blog post; its author edits it, Staff edit any.
    create: 'User',
    write: 'Staff',
    columns: ['Author', 'Published', 'Status', 'Visibility'],
    async list(vars) {
      const { blogPosts } = await query(Op.BLOG_POSTS, vars);
      return { total: blogPosts.totalCount, rows: contentRows(blogPosts.nodes) };
    },
    fields: contentFields,
    async editable(id) {
      const { blogPost } = await query(Op.BLOG_POST, { id });
      return blogPost ? contentValues(blogPost) : null;
    },
    createRecord: async (input) => (await query(Op.CREATE_BLOG_POST, { input })).createBlogPost.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_BLOG_POST, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_BLOG_POST, { id })),
  },
  {
    route: 'pages',
    kind: 'Page',
    noun: 'page',
    plural: 'Pages',
    browse: null,
    create: 'Staff',
    write: 'Staff',
    columns: ['Author', 'Published', 'Status', 'Visibility'],
    async list(vars) {
      const { pages } = await query(Op.PAGES, vars);
      return { total: pages.totalCount, rows: contentRows(pages.nodes) };
    },
    fields: contentFields,
    async editable(id) {
      const { page } = await query(Op.PAGE, { id });
      return page ? contentValues(page) : null;
    },
    createRecord: async (input) => (await query(Op.CREATE_PAGE, { input })).createPage.databaseId,
    updateRecord: async (id, input) => void (await query(Op.UPDATE_PAGE, { id, input })),
    deleteRecord: async (id) => void (await query(Op.DELETE_PAGE, { id })),
  },
];

export const kindByRoute = (route: string | undefined) => KINDS.find((k) => k.route === route);
export const kindByName = (kind: CampusKind) => KINDS.find((k) => k.kind === kind)!;

/** The address of a record's page, or of a kind's list. */
export const recordHref = (kind: CampusKind, id: number) => `#/campus/${kindByName(kind).route}/${id}`;

/**
 * The values typed into a form as the mutation's input: numbers, lists and timestamps
 * converted, '' as null (Slate's "blank"). Only `changed` fields when editing: the others keep
 * their stored values, write-only ones (the contact points) included. A number that is not one
 * is refused here, in Slate's words: GraphQL would refuse the whole request without saying
 * which field.
 */
export function toInput(fields: FormField[], values: Values, initial: Values | null): { input: Record<string, unknown>; errors: Record<string, string> } {
  const input: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = (values[f.name] ?? '').trim();
    if (initial && raw === (initial[f.name] ?? '').trim()) continue;
    if (!initial && raw === '') continue;
    if (raw === '') input[f.name] = f.type === 'tags' ? [] : null;
    else if (f.type === 'int' || f.type === 'ref') {
      if (/^\d{1,10}$/.test(raw) && Number(raw) <= 2 ** 31 - 1) input[f.name] = Number(raw);
      else errors[f.name] = `${f.label} is invalid.`;
    } else if (f.type === 'tags') input[f.name] = raw.split(',').map((t) => t.trim()).filter(Boolean);
    else if (f.type === 'datetime') {
      const d = new Date(raw);
      if (Number.isNaN(d.getTime())) errors[f.name] = `${f.label} is invalid.`;
      else input[f.name] = d.toISOString();
    } else input[f.name] = raw;
  }
  return { input, errors };
}
