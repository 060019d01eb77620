// How a validated spec changes a check (Healthchecks' `_update`), as a pure function so create,
// update and upsert share it and tests need no database.
import { guessKind } from './schedule.ts';
import { slugify } from './slugify.ts';
import type { CheckSpec } from './validate.ts';

export interface CheckFields {
  name: string;
  slug: string;
  tags: string;
  desc: string;
  kind: string;
  timeout: number;
  grace: number;
  schedule: string;
  tz: string;
  methods: string;
  manualResume: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
  filterSubject: boolean;
  filterBody: boolean;
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
}

export const checkDefaults: CheckFields = {
  name: '',
  slug: '',
  tags: '',
  desc: '',
  kind: 'simple',
  timeout: 86400,
  grace: 3600,
  schedule: '* * * * *',
  tz: 'UTC',
  methods: '',
  manualResume: false,
  startKw: '',
  successKw: '',
  failureKw: '',
  filterSubject: false,
  filterBody: false,
  filterHttpBody: false,
  filterDefaultFail: false,
};

export function applySpec(current: CheckFields, spec: CheckSpec, apiVersion: number): CheckFields {
  const next = { ...current };
  if (spec.name !== undefined) {
    next.name = spec.name;
    // v1 and v2 derive the slug from the name; v3 leaves the slug to the client.
    if (apiVersion < 3) next.slug = slugify(spec.name);
  }
  // A schedule wins over a timeout sent in the same request (documented by Healthchecks), and
  // its form decides the kind: one line of five fields is cron, anything else OnCalendar.
  if (spec.schedule) {
    next.kind = guessKind(spec.schedule);
    next.schedule = spec.schedule;
  } else if (spec.timeout !== undefined) {
    next.kind = 'simple';
    next.timeout = spec.timeout;
  }
  // Deprecated email subject filters map onto the keyword fields.
  if (spec.subject !== undefined) {
    next.successKw = spec.subject;
    next.filterSubject = Boolean(next.successKw || next.failureKw);
  }
  if (spec.subject_fail !== undefined) {
    next.failureKw = spec.subject_fail;
    next.filterSubject = Boolean(next.successKw || next.failureKw);
  }
  if (spec.slug !== undefined) next.slug = spec.slug;
  if (spec.tags !== undefined) next.tags = spec.tags;
  if (spec.desc !== undefined) next.desc = spec.desc;
  if (spec.manual_resume !== undefined) next.manualResume = spec.manual_resume;
  if (spec.methods !== undefined) next.methods = spec.methods;
  if (spec.tz !== undefined) next.tz = spec.tz;
  if (spec.start_kw !== undefined) next.startKw = spec.start_kw;
  if (spec.success_kw !== undefined) next.successKw = spec.success_kw;
  if (spec.failure_kw !== undefined) next.failureKw = spec.failure_kw;
  if (spec.filter_subject !== undefined) next.filterSubject = spec.filter_subject;
  if (spec.filter_body !== undefined) next.filterBody = spec.filter_body;
  if (spec.filter_http_body !== undefined) next.filterHttpBody = spec.filter_http_body;
  if (spec.filter_default_fail !== undefined) next.filterDefaultFail = spec.filter_default_fail;
  if (spec.grace !== undefined) next.grace = spec.grace;
  return next;
}

export interface UniqueLookup {
  name?: string;
  slug?: string;
  tags?: string;
  timeout?: number;
  grace?: number;
}

/** The upsert lookup (`unique`): null when the request cannot match (a listed field is absent). */
export function uniqueFilter(spec: CheckSpec): UniqueLookup | null {
  if (!spec.unique || spec.unique.length === 0) return null;
  const filter: UniqueLookup = {};
  for (const field of spec.unique) {
    if (spec[field] === undefined) return null;
    if (field === 'timeout' || field === 'grace') filter[field] = spec[field];
    else filter[field] = spec[field];
  }
  return filter;
}
