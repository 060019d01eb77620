// Field-level validation of campus records, from the kind table. Pure: input in,
// { data, errors } out; references and uniqueness are checked by the service.
import type { FieldSpec, KindSpec } from './kinds.ts';
import { MAX_INT } from './limits.ts';
import { holdsNul } from '../shared/stored-text.ts';

export type FieldErrors = Record<string, string>;
export type RecordInput = Record<string, unknown>;

/** "CourseSectionID" → "Course Section ID" (Slate's spacify, used in default messages). */
export const spacify = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Dates and timestamps stop at 9999-12-31 23:59:59 UTC (four-digit years, as MySQL's DATETIME). */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59);
const inRange = (d: Date) => !Number.isNaN(d.getTime()) && d.getTime() <= LAST_INSTANT;

export function parseDate(value: unknown): string | null | undefined {
  const s = String(value).trim();
  const m = DATE.exec(s);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.toISOString().slice(0, 10) === s ? s : undefined;
  }
  if (/^\d+$/.test(s)) {
    const d = new Date(Number(s) * 1000);
    return inRange(d) ? d.toISOString().slice(0, 10) : undefined;
  }
  return undefined;
}

export function parseTimestamp(value: unknown): Date | undefined {
  if (value instanceof Date) return inRange(value) ? value : undefined;
  const s = String(value).trim();
  if (/^\d+$/.test(s)) {
    const d = new Date(Number(s) * 1000);
    return inRange(d) ? d : undefined;
  }
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2] ?? '00:00:00'}${m[3] ?? 'Z'}`);
  return inRange(d) ? d : undefined;
}

/** NUL cannot be stored in a PostgreSQL text column and is never meaningful in a record. */

function convert(field: FieldSpec, raw: unknown): { value?: unknown; error?: string } {
  const invalid = { error: `${spacify(field.name)} is invalid.` };
  switch (field.type) {
    case 'int': {
      // IDs, references and counts are 32-bit columns: 1e30, -1 and 1.5 are invalid, not a 500.
      if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= MAX_INT) return { value: raw };
      if (typeof raw === 'string' && /^\d+$/.test(raw.trim()) && Number(raw) <= MAX_INT) return { value: Number(raw) };
      return invalid;
    }
    case 'date': {
      const v = parseDate(raw);
      return v === undefined ? invalid : { value: v };
    }
    case 'timestamp': {
      const v = parseTimestamp(raw);
      return v === undefined ? invalid : { value: v };
    }
    case 'enum':
      return typeof raw === 'string' && field.values!.includes(raw.trim()) ? { value: raw.trim() } : invalid;
    case 'varchar':
      if ((typeof raw !== 'string' && typeof raw !== 'number') || holdsNul(String(raw))) return invalid;
      return String(raw).trim().length > 255 ? { error: `${spacify(field.name)} is too long.` } : { value: String(raw).trim() };
    case 'text':
      return (typeof raw === 'string' || typeof raw === 'number') && !holdsNul(String(raw)) ? { value: String(raw) } : invalid;
  }
}

/**
 * Validates the fields present in `input` (all fields on create). Strings are trimmed and
 * blanks become null, as Slate's validator does; unknown keys are ignored.
 */
export function validateFields(kind: KindSpec, input: RecordInput, existing: RecordInput | null): { data: RecordInput; errors: FieldErrors } {
  const data: RecordInput = {};
  const errors: FieldErrors = {};
  for (const field of kind.fields) {
    const key = [field.name, ...(field.aliases ?? [])].find((k) => k in input);
    let raw = key === undefined ? undefined : input[key];
    if (typeof raw === 'string' && raw.trim() === '') raw = null;
    if (raw === undefined) {
      if (!existing && field.required) errors[field.errorKey ?? field.name] = field.requiredMessage ?? `${spacify(field.name)} is missing.`;
      continue;
    }
    if (raw === null) {
      if (field.required) errors[field.errorKey ?? field.name] = field.requiredMessage ?? `${spacify(field.name)} is missing.`;
      // A blank field with a default (Status, Visibility) takes it: those columns hold no null.
      else data[field.name] = field.default ?? null;
      continue;
    }
    const { value, error } = convert(field, raw);
    if (error) {
      errors[field.errorKey ?? field.name] = error;
    } else if (field.minLength && String(value).length < field.minLength) {
      errors[field.name] = field.requiredMessage ?? `${spacify(field.name)} is too short.`;
    } else {
      data[field.name] = value;
    }
  }
  return { data, errors };
}
