// The check spec (Healthchecks' pydantic `Spec`), one schema for both transports. Healthchecks
// reports only the first error in field-declaration order, whatever the JSON key order, with
// its own message templates; we reproduce both.
import { z } from 'zod';
import { validationError } from '../../shared/errors.ts';
import { isValidSchedule } from './schedule.ts';
import { canonicalTimezone } from './timezones.ts';

const SECONDS_MIN = 60;
const SECONDS_MAX = 31536000;
const UNIQUE_FIELDS = ['name', 'slug', 'tags', 'timeout', 'grace'] as const;

// JSON `true` is a Python int (1) to pydantic: it fails the range check, not the type check.
const seconds = z.preprocess((v) => (typeof v === 'boolean' ? Number(v) : v), z.number().int().min(SECONDS_MIN).max(SECONDS_MAX));
const text = (max?: number) => (max ? z.string().max(max) : z.string());

/** Declaration order is error precedence order (Healthchecks' Spec). */
const fields = {
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
  schedule: text(100).refine(isValidSchedule, { params: { template: 'cron' } }),
  slug: text(100).regex(/^[a-z0-9-_]*$/),
  start_kw: text(200),
  subject: text(200),
  subject_fail: text(200),
  success_kw: text(200),
  tags: text(500),
  timeout: seconds,
  tz: text().refine((v) => canonicalTimezone(v) !== null, { params: { template: 'tz' } }),
  unique: z.array(z.enum(UNIQUE_FIELDS)),
} as const;

type Fields = typeof fields;
export type CheckSpec = { [K in keyof Fields]?: z.output<Fields[K]> };

function message(field: string, issue: z.core.$ZodIssue): string {
  const inItem = issue.path.length > 0;
  const subject = inItem ? `an item in '${field}'` : field;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.expected as string;
      if (expected === 'number' || expected === 'int') return `${subject} is not a number`;
      if (expected === 'boolean') return `${subject} is not a boolean`;
      if (expected === 'array') return `${subject} is not an array`;
      if (field === 'methods' || inItem) return `${subject} has unexpected value`;
      return `${subject} is not a string`;
    }
    case 'too_small':
      return `${subject} is too small`;
    case 'too_big':
      return issue.origin === 'string' ? `${subject} is too long` : `${subject} is too large`;
    case 'invalid_value':
      return `${subject} has unexpected value`;
    case 'invalid_format':
      return `${subject} does not match pattern`;
    case 'custom':
      return (issue.params as { template?: string } | undefined)?.template === 'tz'
        ? `${subject} is not a valid timezone`
        : `${subject} is not a valid cron or OnCalendar expression`;
    default:
      return `${subject} is invalid`;
  }
}

export function parseCheckSpec(body: unknown): CheckSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError('json validation error: value is not an object');
  }
  const input = body as Record<string, unknown>;
  const spec: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(fields)) {
    if (!(field in input)) continue;
    // Healthchecks validates strictly; a JSON integer that is "too big" never crashes here.
    const result = (schema as z.ZodType).safeParse(input[field]);
    if (!result.success) {
      throw validationError(`json validation error: ${message(field, result.error.issues[0]!)}`);
    }
    spec[field] = result.data;
  }
  if (typeof spec.tz === 'string') spec.tz = canonicalTimezone(spec.tz);
  return spec as CheckSpec;
}
