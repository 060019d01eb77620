// `GET /<prefix>/*fields`: a kind's field metadata as Slate's RecordsRequestHandler
// ::handleFieldsRequest answers it, `{"fields": {...}, "dynamicFields": {...}}` and no
// `success` key. Each field is what ActiveRecord::_initField makes of its declaration: the
// default keys (type, length, primary, unique, autoincrement, notnull, unsigned, default,
// values), columnName, the declaration's own keys, `blankisnull` for nullable fields, then the
// label. Generated from KINDS, RELATIONS and COMPUTED, so a kind added there is described here.
// Slate checks no access level for it (it describes the class, not a record), and neither do we.
import { KIND_LIST, type FieldSpec, type FieldType, type KindSpec } from '../../src/campus/kinds.ts';
import { fieldLabel, labelIdentifier } from '../../src/campus/csv-columns.ts';
import { RELATIONS } from '../../src/campus/relationships.ts';
import { COMPUTED } from '../../src/campus/computed.ts';
import type { Route } from './handler.ts';

/** Slate's column types for ours: references and counts are `uint`, long text `clob`. */
const SLATE_TYPES: Record<FieldType, string> = { int: 'uint', varchar: 'string', text: 'clob', date: 'date', timestamp: 'timestamp', enum: 'enum' };

/** The class names a kind's records carry (Slate lists the record class's subclasses). */
const CLASS_VALUES: Partial<Record<string, string[]>> = { Person: ['Emergence\\People\\Person', 'Emergence\\People\\User'] };

/** Fields with a unique index: handles, codes and usernames. */
const UNIQUE = new Set(['Handle', 'Code', 'Username']);

type Declaration = { type: string; notnull: boolean } & Record<string, unknown>;

/** _initField: the defaults, then columnName, then the declaration; blankisnull and label last. */
function initField(kind: KindSpec, name: string, declaration: Declaration): Record<string, unknown> {
  const out: Record<string, unknown> = { type: null, length: null, primary: null, unique: null, autoincrement: null, notnull: true, unsigned: null, default: null, values: null };
  Object.assign(out, { columnName: name }, declaration);
  if (!out.notnull) out.blankisnull = true;
  out.label = fieldLabel(kind, name);
  return out;
}

/** ActiveRecord's and VersionedRecord's fields, as Slate declares them. */
function standardDeclarations(kind: KindSpec): Array<[string, Declaration]> {
  const fields: Array<[string, Declaration]> = [
    ['ID', { type: 'integer', primary: true, autoincrement: true, notnull: true, unsigned: true, includeInSummary: true }],
    ['Class', { type: 'enum', notnull: true, values: CLASS_VALUES[kind.name] ?? [kind.className], description: 'PHP class responsible for loading/saving this record instance' }],
    ['Created', { type: 'timestamp', notnull: true, default: 'CURRENT_TIMESTAMP', description: 'Timestamp capturing when this record was first saved to the database' }],
    ['CreatorID', { type: 'integer', notnull: false, description: 'ID of person who first saved this record to the database' }],
  ];
  if (kind.versioned) {
    fields.push(
      ['RevisionID', { type: 'integer', unsigned: true, notnull: false }],
      ['Modified', { type: 'timestamp', notnull: false, description: 'Timestamp capturing when changes to this record were last saved to the database' }],
      ['ModifierID', { type: 'uint', notnull: false, description: 'ID of person who last saved changes to this record to the database' }],
    );
  }
  return fields;
}

/** A kind's own field: required ones, ones with a default, handles and generated codes are NOT NULL. */
function declaration(kind: KindSpec, field: FieldSpec): Declaration {
  const generated = field.name === 'Handle' || (field.name === 'Code' && kind.name !== 'Department');
  const out: Declaration = { type: SLATE_TYPES[field.type], notnull: !!field.required || field.default !== undefined || generated };
  if (UNIQUE.has(field.name)) out.unique = true;
  if (field.default !== undefined) out.default = field.default;
  if (field.values) out.values = [...field.values];
  // Slate's accountLevelEnumerate: the field is left out of records for callers below it.
  if (field.readLevel) out.accountLevelEnumerate = field.readLevel;
  return out;
}

/** The `*fields` body for a kind. */
export function fieldsJson(kind: KindSpec): { fields: Record<string, unknown>; dynamicFields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  for (const [name, decl] of standardDeclarations(kind)) fields[name] = initField(kind, name, decl);
  for (const field of kind.fields) fields[field.name] = initField(kind, field.name, declaration(kind, field));

  // _initDynamicField: a label, and the relationship (or method) that fills it; `include=` names these.
  const dynamicFields: Record<string, unknown> = {};
  for (const [name, relation] of Object.entries(RELATIONS[kind.name] ?? {})) {
    dynamicFields[name] = { ...(relation.readLevel ? { accountLevelEnumerate: relation.readLevel } : {}), label: labelIdentifier(name), relationship: name };
  }
  for (const name of Object.keys(COMPUTED[kind.name] ?? {})) dynamicFields[name] = { label: labelIdentifier(name), method: name };
  return { fields, dynamicFields };
}

/** One `*fields` route per kind; `/<prefix>/json/*fields` comes with it (route() adds the `json` twin). */
export function registerFieldsRoutes(route: Route, kinds: readonly KindSpec[] = KIND_LIST) {
  for (const kind of kinds) {
    const body = fieldsJson(kind);
    // A regex parameter, as find-my-way reads a literal `*` as a wildcard; Slate urldecodes the
    // segment, so `%2Afields` is the same route.
    route(['GET', 'POST'], `/${kind.prefix}/:fields(^\\*fields$)`, async () => body);
  }
}
