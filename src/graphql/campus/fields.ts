// GraphQL names and fields for campus kinds, derived from the kind table: Slate's FirstName
// becomes firstName, CourseID courseId. One place maps between the two spellings.
import { hasLevel, type FieldSpec, type KindSpec } from '../../campus/kinds.ts';
import { requireReadable } from '../../campus/access.ts';
import type { Viewer } from '../../campus/auth.ts';
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
export function readable(kind: KindSpec, viewer: Viewer, record: Record<string, unknown>, now: Date): boolean {
  try {
    requireReadable(kind, viewer, record, now);
    return true;
  } catch {
    return false;
  }
}
