// The campus record kinds declared in one table (Slate serves them with one generic
// records handler configured per kind; so do we). The generic service, the REST routes and
// the GraphQL types all read this table: adding a field is one line here plus the model.
export type FieldType = 'int' | 'varchar' | 'text' | 'date' | 'timestamp' | 'enum';
export type AccountLevel = 'Disabled' | 'Contact' | 'User' | 'Student' | 'Staff' | 'Teacher' | 'Administrator' | 'Developer';
export type KindName = 'Person' | 'Section' | 'Course' | 'BlogPost' | 'Page' | 'Group' | 'Location' | 'Term' | 'Department' | 'Schedule';

export const ACCOUNT_LEVELS: AccountLevel[] = ['Disabled', 'Contact', 'User', 'Student', 'Staff', 'Teacher', 'Administrator', 'Developer'];
export const STATUSES = ['Hidden', 'Live', 'Deleted'];

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  values?: readonly string[];
  /** The kind an *ID field points to; a missing record is a validation error. */
  ref?: KindName;
  /** Slate's message when a required field is missing (default "<Field> is missing."). */
  requiredMessage?: string;
  /**
   * The key of this field's errors in `validationErrors` when it is not the field's name: Slate's
   * require-relationship validators name the relationship (a section's `Course`, not `CourseID`).
   */
  errorKey?: string;
  /** Minimum length for strings (Slate: first and last names need 2 characters). */
  minLength?: number;
  /** Visible only to callers at this level or above (Slate's accountLevelEnumerate). */
  readLevel?: AccountLevel;
  /** Other names accepted on input (Term's StartDate for the seed's StarDate). */
  aliases?: string[];
  /** The value a new record gets when none is given (shown by Slate's GET /create form). */
  default?: string;
}

export interface Access {
  /** Level needed to browse the collection; null = anyone. */
  browse: AccountLevel | null;
  /** Level needed to read one record; null = anyone (public, Live content only for anonymous callers). */
  read: AccountLevel | null;
  /** Level needed to create, edit and delete. */
  write: AccountLevel;
  /** Level allowed to create (blog posts: User); edit/delete then needs authorship or `write`. */
  create?: AccountLevel;
}

export interface KindSpec {
  name: KindName;
  /** REST path prefix and GraphQL plural. */
  prefix: string;
  /** Prisma delegate name. */
  model: 'person' | 'section' | 'course' | 'content' | 'group' | 'location' | 'term' | 'department' | 'schedule';
  className: string;
  noun: string;
  /** The field the handle is generated from; null when the kind has no Handle (people). */
  handleFrom: string | null;
  /** Slate's Schedule: the handle is the title with whitespace removed and its case kept (HandleBehavior `case: null`). */
  handleStyle?: 'compact';
  fields: FieldSpec[];
  versioned: boolean;
  /** Parent-child tree through ParentID; `cascade` deletes descendants (Slate's nested sets). */
  tree?: 'cascade' | 'refuse';
  access: Access;
  /** Default browse order (tree kinds: pre-order, Slate's `Left`, see tree.ts). */
  order: Array<Record<string, 'asc' | 'desc'>>;
  /** Slate's default browse `limit` for REST ($browseLimitDefault; none: `limit: false`). */
  browseLimit?: number;
}

const status = (): FieldSpec => ({ name: 'Status', type: 'enum', values: STATUSES, default: 'Live' });

const contentFields: FieldSpec[] = [
  { name: 'ContextClass', type: 'varchar' },
  { name: 'ContextID', type: 'int' },
  { name: 'Title', type: 'varchar', required: true, requiredMessage: 'A title is required' },
  { name: 'Handle', type: 'varchar' },
  { name: 'AuthorID', type: 'int', ref: 'Person' },
  status(),
  { name: 'Published', type: 'timestamp' },
  { name: 'Visibility', type: 'enum', values: ['Public', 'Private'], default: 'Public' },
  { name: 'LayoutClass', type: 'enum', values: ['OneColumn'] },
  { name: 'LayoutConfig', type: 'text' },
];

export const KINDS: Record<KindName, KindSpec> = {
  Person: {
    name: 'Person',
    prefix: 'people',
    model: 'person',
    className: 'Emergence\\People\\Person',
    noun: 'person',
    handleFrom: null,
    versioned: true,
    fields: [
      { name: 'FirstName', type: 'varchar', required: true, minLength: 2, requiredMessage: 'First name is required.' },
      { name: 'LastName', type: 'varchar', required: true, minLength: 2, requiredMessage: 'Last name is required.' },
      { name: 'MiddleName', type: 'varchar' },
      { name: 'Gender', type: 'enum', values: ['Male', 'Female'] },
      { name: 'BirthDate', type: 'date', readLevel: 'Staff' },
      { name: 'Location', type: 'varchar' },
      { name: 'About', type: 'text' },
      { name: 'PrimaryPhotoID', type: 'int' },
      { name: 'PrimaryEmailID', type: 'int', readLevel: 'Staff' },
      { name: 'PrimaryPhoneID', type: 'int', readLevel: 'Staff' },
      { name: 'PrimaryPostalID', type: 'int', readLevel: 'Staff' },
      { name: 'Username', type: 'varchar' },
      { name: 'AccountLevel', type: 'enum', values: ACCOUNT_LEVELS, readLevel: 'Staff' },
    ],
    access: { browse: 'User', read: null, write: 'Staff' },
    order: [{ LastName: 'asc' }, { FirstName: 'asc' }],
  },
  Section: {
    name: 'Section',
    prefix: 'sections',
    model: 'section',
    className: 'Slate\\Courses\\Section',
    noun: 'course section',
    handleFrom: 'Title',
    versioned: true,
    fields: [
      { name: 'CourseID', type: 'int', required: true, ref: 'Course', requiredMessage: 'Course must be selected', errorKey: 'Course' },
      { name: 'Title', type: 'varchar' },
      { name: 'Handle', type: 'varchar' },
      { name: 'Code', type: 'varchar' },
      status(),
      { name: 'Notes', type: 'text' },
      { name: 'StudentsCapacity', type: 'int' },
      { name: 'TermID', type: 'int', ref: 'Term' },
      { name: 'ScheduleID', type: 'int', ref: 'Schedule' },
      { name: 'LocationID', type: 'int', ref: 'Location' },
    ],
    access: { browse: null, read: null, write: 'Staff' },
    order: [{ Code: 'asc' }],
  },
  Course: {
    name: 'Course',
    prefix: 'courses',
    model: 'course',
    className: 'Slate\\Courses\\Course',
    noun: 'course',
    handleFrom: 'Title',
    versioned: true,
    fields: [
      { name: 'Title', type: 'varchar', required: true, requiredMessage: 'Title is missing.' },
      { name: 'Handle', type: 'varchar' },
      { name: 'Code', type: 'varchar', required: true },
      status(),
      { name: 'Description', type: 'text' },
      { name: 'Prerequisites', type: 'text' },
      { name: 'DepartmentID', type: 'int', ref: 'Department' },
    ],
    access: { browse: null, read: null, write: 'Staff' },
    order: [{ Code: 'asc' }],
  },
  BlogPost: {
    name: 'BlogPost',
    prefix: 'blog',
    model: 'content',
    className: 'Emergence\\CMS\\BlogPost',
    noun: 'blog post',
    handleFrom: 'Title',
    versioned: true,
    // The seed gives blog posts and pages the same fields.
    fields: contentFields,
    access: { browse: null, read: null, write: 'Staff', create: 'User' },
    order: [{ Published: 'desc' }, { ID: 'desc' }],
    browseLimit: 25,
  },
  Page: {
    name: 'Page',
    prefix: 'pages',
    model: 'content',
    className: 'Emergence\\CMS\\Page',
    noun: 'page',
    handleFrom: 'Title',
    versioned: true,
    fields: contentFields,
    access: { browse: null, read: null, write: 'Staff' },
    order: [{ Published: 'desc' }, { ID: 'desc' }],
  },
  Group: {
    name: 'Group',
    prefix: 'groups',
    model: 'group',
    className: 'Emergence\\People\\Groups\\Group',
    noun: 'group',
    handleFrom: 'Name',
    versioned: false,
    tree: 'cascade',
    fields: [
      { name: 'Name', type: 'varchar', required: true, requiredMessage: 'A name is required' },
      { name: 'Handle', type: 'varchar' },
      { name: 'ParentID', type: 'int', ref: 'Group' },
      { name: 'Founded', type: 'date' },
      { name: 'Data', type: 'text' },
      status(),
    ],
    access: { browse: 'Staff', read: 'User', write: 'Staff' },
    order: [{ Name: 'asc' }],
  },
  Location: {
    name: 'Location',
    prefix: 'locations',
    model: 'location',
    className: 'Emergence\\Locations\\Location',
    noun: 'location',
    handleFrom: 'Title',
    versioned: true,
    tree: 'cascade',
    fields: [
      { name: 'Title', type: 'varchar', required: true, requiredMessage: 'A title is required' },
      { name: 'Handle', type: 'varchar' },
      status(),
      { name: 'Description', type: 'text' },
      { name: 'ParentID', type: 'int', ref: 'Location' },
    ],
    access: { browse: 'Staff', read: null, write: 'Staff' },
    order: [{ Title: 'asc' }],
  },
  Term: {
    name: 'Term',
    prefix: 'terms',
    model: 'term',
    className: 'Slate\\Term',
    noun: 'term',
    handleFrom: 'Title',
    versioned: true,
    tree: 'refuse',
    fields: [
      { name: 'Title', type: 'varchar', required: true, requiredMessage: 'Title is missing.' },
      { name: 'Handle', type: 'varchar' },
      status(),
      { name: 'StarDate', type: 'date', aliases: ['StartDate'] },
      { name: 'EndDate', type: 'date' },
      { name: 'ParentID', type: 'int', ref: 'Term' },
    ],
    access: { browse: 'Staff', read: null, write: 'Staff' },
    order: [{ StarDate: 'asc' }, { ID: 'asc' }],
  },
  // Slate's DepartmentsRequestHandler and SchedulesRequestHandler set only the class and the
  // browse order: RecordsRequestHandler's default access (browse Staff, read anyone, write Staff).
  Department: {
    name: 'Department',
    prefix: 'departments',
    model: 'department',
    className: 'Slate\\Courses\\Department',
    noun: 'course department',
    handleFrom: 'Title',
    versioned: true,
    fields: [
      { name: 'Title', type: 'varchar', required: true, requiredMessage: 'A title is required' },
      { name: 'Handle', type: 'varchar' },
      { name: 'Code', type: 'varchar' },
      status(),
      { name: 'Description', type: 'text' },
    ],
    access: { browse: 'Staff', read: null, write: 'Staff' },
    order: [{ Title: 'asc' }, { ID: 'asc' }],
  },
  Schedule: {
    name: 'Schedule',
    prefix: 'schedules',
    model: 'schedule',
    className: 'Slate\\Courses\\Schedule',
    noun: 'course schedule',
    handleFrom: 'Title',
    handleStyle: 'compact',
    versioned: true,
    fields: [
      { name: 'Title', type: 'varchar' },
      { name: 'Handle', type: 'varchar' },
      status(),
      { name: 'Description', type: 'text' },
    ],
    access: { browse: 'Staff', read: null, write: 'Staff' },
    order: [{ Title: 'asc' }, { ID: 'asc' }],
  },
};

export const KIND_LIST = Object.values(KINDS);
export const kindByPrefix = (prefix: string) => KIND_LIST.find((k) => k.prefix === prefix);

export function hasLevel(level: string | null | undefined, needed: AccountLevel): boolean {
  if (!level) return false;
  return ACCOUNT_LEVELS.indexOf(level as AccountLevel) >= ACCOUNT_LEVELS.indexOf(needed);
}
