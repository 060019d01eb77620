// The check spec (Healthchecks' pydantic `Spec`), one schema for both transports. Healthchecks
// reports only the first error in field-declaration order, whatever the JSON key order, with
// its own message templates; we reproduce both.
import { z } from 'zod';
import { validationError } from '../../shared/errors.ts';
import { isValidSchedule } from './schedule.ts';
import { canonicalTimezone } from './timezones.ts';
import { holdsNul } from '../../shared/stored-text.ts';

export type UniqueField = 'name' | 'slug' | 'tags' | 'timeout' | 'grace';

export interface CheckSpec {
  channels?: string;
  desc?: string;
  failure_kw?: string;
  filter_subject?: boolean;
  filter_body?: boolean;
  filter_http_body?: boolean;
  filter_default_fail?: boolean;
  grace?: number;
  manual_resume?: boolean;
  methods?: '' | 'POST';
  name?: string;
  schedule?: string;
  slug?: string;
  start_kw?: string;
  subject?: string;
  subject_fail?: string;
  success_kw?: string;
  tags?: string;
  timeout?: number;
  /** Canonical name: legacy aliases are mapped before they are stored. */
  tz?: string;
  unique?: UniqueField[];
}

const SECONDS_MIN = 60;
const SECONDS_MAX = 31_536_000;
const UNIQUE_FIELDS = ['name', 'slug', 'tags', 'timeout', 'grace'] as const;

/** Python (and so Healthchecks) counts code points; String#length would count an emoji twice. */
function tooLong(ctx: z.core.ParsePayload<string>, max: number): boolean {
  if ([...ctx.value].length <= max) return false;
  ctx.issues.push({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: ctx.value });
  return true;
}

// NUL is refused in every text field on both databases: PostgreSQL's text cannot hold it, and a
// check stored on SQLite with one could not move to PostgreSQL (docs/decisions.md).
const text = (max?: number) =>
  z.string().check((ctx) => {
    if (max !== undefined && tooLong(ctx, max)) return;
    if (holdsNul(ctx.value)) ctx.issues.push({ code: 'custom', params: { kind: 'nul' }, input: ctx.value });
  });

// A JSON `true` is a Python int (1) to pydantic: it fails the range check, not the type check.
// `.int()` also bounds to safe integers, so a huge number reads "too large" rather than crashing.
const seconds = z.preprocess(
  (v) => (typeof v === 'boolean' ? Number(v) : v),
  z.number().int().min(SECONDS_MIN).max(SECONDS_MAX),
);

// Length first, as Healthchecks does, and no cron parsing of an over-long string.
const schedule = z.string().check((ctx) => {
  if (!tooLong(ctx, 100) && !isValidSchedule(ctx.value)) {
    ctx.issues.push({ code: 'custom', params: { kind: 'schedule' }, input: ctx.value });
  }
});

const tz = z.string().transform((value, ctx) => {
  const canonical = canonicalTimezone(value);
  if (canonical !== null) return canonical;
  ctx.issues.push({ code: 'custom', params: { kind: 'tz' }, input: value });
  return z.NEVER;
});

/** Key order is Healthchecks' declaration order, which is the error precedence order. */
const specSchema = z
  .object({
    channels: text(),
    desc: text(),
    failure_kw: text(200),
    filter_subject: z.boolean(),
    filter_body: z.boolean(),
    filter_http_body: z.boolean(),
    filter_default_fail: z.boolean(),
    grace: seconds,
    manual_resume: z.boolean(),
    methods: z.enum(['', 'POST']),
    name: text(100),
    schedule,
    slug: text(100).regex(/^[a-z0-9_-]*$/),
    start_kw: text(200),
    subject: text(200),
    subject_fail: text(200),
    success_kw: text(200),
    // Healthchecks' API has no limit here, but its column holds 500 and its older schema said so.
    tags: text(500),
    timeout: seconds,
    tz,
    unique: z.array(z.enum(UNIQUE_FIELDS)),
  })
  .partial();

/** zod issue → Healthchecks template, keyed by code and the detail that tells cases apart. */
const TEMPLATES: Record<string, string> = {
  'invalid_type:string': 'is not a string',
  'invalid_type:number': 'is not a number',
  'invalid_type:int': 'is not a number',
  'invalid_type:boolean': 'is not a boolean',
  'invalid_type:array': 'is not an array',
  'too_small:number': 'is too small',
  'too_small:int': 'is too small',
  'too_big:number': 'is too large',
  'too_big:int': 'is too large',
  'too_big:string': 'is too long',
  'invalid_value:': 'has unexpected value',
  'invalid_format:regex': 'does not match pattern',
  'custom:schedule': 'is not a valid cron or OnCalendar expression',
  'custom:tz': 'is not a valid timezone',
  'custom:nul': 'must not contain NUL characters',
};

function issueKey(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `invalid_type:${issue.expected}`;
    case 'too_small':
    case 'too_big':
      return `${issue.code}:${issue.origin}`;
    case 'invalid_format':
      return `invalid_format:${issue.format}`;
    case 'custom':
      return `custom:${(issue.params as { kind?: string } | undefined)?.kind}`;
    default:
      return `${issue.code}:`;
  }
}

function message(issue: z.core.$ZodIssue): string {
  const [field, item] = issue.path;
  // Healthchecks names list items "an item in '<field>'".
  const subject = item === undefined ? String(field) : `an item in '${String(field)}'`;
  return `json validation error: ${subject} ${TEMPLATES[issueKey(issue)] ?? 'is invalid'}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Validates a request body; unknown keys (including `api_key`) are dropped. */
export function parseCheckSpec(body: unknown): CheckSpec {
  if (!isPlainObject(body)) throw validationError('json validation error: value is not an object');
  const result = specSchema.safeParse(body);
  // zod walks the shape in declaration order, so the first issue is the one Healthchecks reports.
  if (!result.success) throw validationError(message(result.error.issues[0]!));
  const spec: CheckSpec = result.data;
  return spec;
}
