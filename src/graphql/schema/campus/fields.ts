// GraphQL names and fields for campus kinds, derived from the kind table: Slate's FirstName
// becomes firstName, CourseID courseId. One place maps between the two spellings.
import { hasLevel, type FieldSpec, type KindSpec } from '../../../campus/kinds.ts';
import { canRead, requireReadable } from '../../../campus/access.ts';
import type { Viewer } from '../../../campus/auth.ts';
import type { GraphQLContext } from '../context.ts';

export const gqlName = (name: string) => (name === 'ID' ? 'id' : name.replace(/ID$/, 'Id').replace(/^[A-Z]/, (c) => c.toLowerCase()));

/** GraphQL input (camelCase) → the records service's input (Slate's field names). */
export function toRecordInput(kind: KindSpec, input: Record<string, unknown>, extra: Record<string, string> = {}): Record<string, unknown> {
  const byGql = new Map(kind.fields.map((f) => [gqlName(f.name), f.name]));
  for (const [g, s] of Object.entries(extra)) byGql.set(g, s);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[byGql.get(key) ?? key] = value;
  }
  return out;
}

/** Staff-only fields resolve to null for everyone else (a person still sees their own). */
export async function visibleField(kind: KindSpec, field: FieldSpec, record: Record<string, unknown>, ctx: GraphQLContext) {
  if (!field.readLevel) return record[field.name] ?? null;
  const viewer = await ctx.viewer();
  const self = kind.name === 'Person' && viewer.personId === record.ID;
  return self || hasLevel(viewer.level, field.readLevel) ? (record[field.name] ?? null) : null;
}

/** Whether `viewer` may read `record` (the rule `record(handle:)` applies), without throwing. */
export const readable = (kind: KindSpec, viewer: Viewer, record: Record<string, unknown>, now: Date): boolean => canRead(kind, viewer, record, now);

/** The records of `items` the caller may read (`of` picks the record out of a join row): lists leave the others out, as REST browse does. */
export async function readableOnly<T>(kind: KindSpec, items: readonly T[], ctx: GraphQLContext, of: (item: T) => unknown = (item) => item): Promise<T[]> {
  const viewer = await ctx.viewer();
  return items.filter((item) => {
    const record = of(item);
    return record !== null && typeof record === 'object' && readable(kind, viewer, record as Record<string, unknown>, ctx.now);
  });
}

/** A single related record, or null when the caller may not read it (no error: like a list, it is left out). */
export async function readableOrNull<T>(kind: KindSpec, record: T | null | undefined, ctx: GraphQLContext): Promise<T | null> {
  if (!record) return null;
  return readable(kind, await ctx.viewer(), record as Record<string, unknown>, ctx.now) ? record : null;
}

/**
 * The read rule as a type-level auth scope: a campus record anywhere in the graph is readable
 * by exactly the callers `record(id:)` serves. Refused callers get the root field's own error.
 */
export function typeReadRule(kind: KindSpec) {
  return async (record: unknown, ctx: GraphQLContext) => {
    requireReadable(kind, await ctx.viewer(), record as Record<string, unknown>, ctx.now);
    return true;
  };
}
