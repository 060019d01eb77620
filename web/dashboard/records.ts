// Campus records linked to a check (Check.records) come with another change: the dashboard
// asks the schema whether the field exists and, if so, what its records are called, and shows
// the column only then. Until it does, queries never name the field (which would fail them).
import { query } from '../lib/graphql.ts';
import type { LinkedRecord } from './operations.ts';

/** Fields that name a record, in order of preference (campus kinds use title, name, code, handle, username). */
const LABELS = ['title', 'name', 'fullName', 'code', 'handle', 'username', 'label'];

interface TypeRef {
  kind: string;
  name: string | null;
  ofType?: TypeRef | null;
}
interface FieldInfo {
  name: string;
  args?: Array<{ type: TypeRef }>;
  type?: TypeRef;
}
export interface TypeInfo {
  kind: string;
  fields?: FieldInfo[] | null;
  possibleTypes?: Array<{ name: string; fields?: FieldInfo[] | null }> | null;
}

const named = (t: TypeRef | null | undefined): TypeRef | null => (!t ? null : t.ofType ? named(t.ofType) : t);
const labelsOf = (fields: FieldInfo[] | null | undefined) => LABELS.filter((l) => fields?.some((f) => f.name === l));

/** The selection for Check.records given its record type ('' when it cannot be shown). */
export function recordsSelection(recordType: TypeInfo | null): string {
  if (!recordType) return '';
  if (recordType.kind === 'OBJECT') return `records { __typename ${labelsOf(recordType.fields).join(' ')} }`;
  // A union or interface: each kind's own label fields, in fragments. Each is aliased by its
  // type: one name may be `String` on one kind and `String!` on another (Section.title,
  // Course.title), which GraphQL refuses to merge under one response key.
  const parts = (recordType.possibleTypes ?? []).map((p) => ({ name: p.name, labels: labelsOf(p.fields) })).filter((p) => p.labels.length);
  return `records { __typename ${parts.map((p) => `... on ${p.name} { ${p.labels.map((l) => `${p.name}_${l}: ${l}`).join(' ')} }`).join(' ')} }`;
}

export function recordLabel(record: LinkedRecord): string {
  const values = record as unknown as Record<string, unknown>;
  const label = LABELS.flatMap((l) => [values[`${record.__typename}_${l}`], values[l]]).find((v) => typeof v === 'string' && v);
  return label ? `${record.__typename}: ${label}` : record.__typename;
}

const CHECK_FIELD_TYPES = `{ __type(name: "Check") { fields { name args { type { kind } } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`;
const TYPE = `query T($name: String!) { __type(name: $name) { kind fields { name } possibleTypes { name fields { name } } } }`;

/** Asks the server (only when Check has a `records` field) how to select it. */
export async function discoverRecords(checkFields: string[], key: string): Promise<string> {
  if (!checkFields.includes('records')) return '';
  const check = await query<{ __type: { fields: FieldInfo[] } }>(CHECK_FIELD_TYPES, {}, key);
  const field = check.__type.fields.find((f) => f.name === 'records');
  // A field with a required argument cannot be asked for blindly.
  if (!field || field.args?.some((a) => a.type.kind === 'NON_NULL')) return '';
  const name = named(field.type)?.name;
  if (!name) return '';
  return recordsSelection((await query<{ __type: TypeInfo | null }>(TYPE, { name }, key)).__type);
}
