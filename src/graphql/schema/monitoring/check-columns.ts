// The Check columns each field of the Check type reads, so that a page of checks reads only what
// its query asks for: a dashboard's 100 checks need 10 of the table's 33 columns, and reading
// the rest (descriptions, keywords, filters, keys) costs the driver and Prisma a value each.
// REST answers a fixed shape and reads whole rows; this is GraphQL's own advantage.
import type { GraphQLResolveInfo } from 'graphql';
import type { Check } from '../../../generated/prisma/client.ts';
import type { CheckTiming } from '../../../monitoring/checks/status.ts';
import { selectedFields } from '../selected-fields.ts';

export type CheckColumn = keyof Check;

/** What status, started and nextPing read: checkState's CheckTiming. */
const TIMING = ['kind', 'timeout', 'grace', 'schedule', 'tz', 'status', 'lastPing', 'lastStart'] as const satisfies readonly (keyof CheckTiming)[];

/**
 * Every field of the Check type and the columns its resolver reads from the row. Relations
 * (flips, channels, notifications) are planned by plugin-prisma and read nothing more of the
 * row; pings and records are loaded by the check's id. A field missing here makes the page read
 * whole rows (test/graphql/check-columns.test.ts fails until it is added).
 */
export const CHECK_FIELD_COLUMNS: Readonly<Record<string, readonly CheckColumn[]>> = {
  __typename: [],
  id: ['id'],
  uuid: ['code'],
  uniqueKey: ['uniqueKey'],
  name: ['name'],
  slug: ['slug'],
  tags: ['tags'],
  tagsString: ['tags'],
  desc: ['desc'],
  kind: ['kind'],
  timeout: ['kind', 'timeout'],
  schedule: ['kind', 'schedule'],
  tz: ['kind', 'tz'],
  grace: ['grace'],
  nPings: ['nPings'],
  status: TIMING,
  started: ['lastStart'],
  lastPing: ['lastPing'],
  nextPing: TIMING,
  lastDuration: ['lastDurationMs'],
  manualResume: ['manualResume'],
  methods: ['methods'],
  startKw: ['startKw'],
  successKw: ['successKw'],
  failureKw: ['failureKw'],
  filterSubject: ['filterSubject'],
  filterBody: ['filterBody'],
  filterHttpBody: ['filterHttpBody'],
  filterDefaultFail: ['filterDefaultFail'],
  createdAt: ['createdAt'],
  pingUrl: ['code'],
  updateUrl: ['code'],
  pauseUrl: ['code'],
  resumeUrl: ['code'],
  badgeUrl: ['badgeKey'],
  channels: [],
  pings: ['id'],
  notifications: [],
  pingEmail: ['code'],
  flips: [],
  downtimes: ['status', 'createdAt'],
  records: ['id'],
};

/** Columns every listed check carries whatever is asked: its key and the page's cursor. */
const ALWAYS: readonly CheckColumn[] = ['id', 'uniqueKey', 'projectId'];

/**
 * The columns the checks under `path` (field names below the field `info` resolves, e.g.
 * ['nodes']) need, fragments included; null when a field there is not in CHECK_FIELD_COLUMNS,
 * which means whole rows. Fields under @skip/@include count as asked: a column too many is
 * harmless, a column too few is not.
 */
export function checkColumnsFor(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): CheckColumn[] | null {
  const columns = new Set<CheckColumn>(ALWAYS);
  for (const field of selectedFields(info.fieldNodes, info.fragments, path)) {
    const needs = Object.hasOwn(CHECK_FIELD_COLUMNS, field.name.value) ? CHECK_FIELD_COLUMNS[field.name.value] : undefined;
    if (!needs) return null;
    for (const c of needs) columns.add(c);
  }
  return [...columns];
}
