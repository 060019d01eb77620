// Connector mappings (Slate's Emergence\Connectors\Mapping, a record's `Mapping`/`Mappings`
// context children): which record a connector knows as an external identifier. Slate writes
// them only from connector synchronizations, which need Administrator; it has no mappings
// route. Staff read them (as they read every record), Administrators write them.
import type { ConnectorMapping } from '../generated/prisma/client.ts';
import { conflict, notFound, RecordValidationError } from '../shared/errors.ts';
import { requireLevel } from './access.ts';
import { KINDS, type KindName, type KindSpec } from './kinds.ts';
import type { Relation } from './relation.ts';
import { parseId } from './limits.ts';
import { requireRecord, type CampusDeps, type CampusRecord } from './lookup.ts';
import { subtreeIds } from './tree.ts';
import { deleteContextNotes } from './notes.ts';
import { validateFields, type RecordInput } from './validate.ts';
import type { Viewer } from './viewer.ts';

export type { ConnectorMapping };
export const MAPPING_CLASS = 'Emergence\\Connectors\\Mapping';
export const MAPPING_SOURCES = ['creation', 'matching', 'manual'] as const;
export const MAPPING_READ_LEVEL = 'Staff';
export const MAPPING_WRITE_LEVEL = 'Administrator';

/** Slate's columns: Connector and ExternalKey are VARCHAR(25), ExternalIdentifier VARCHAR(255). */
const KEY_CHARS = 25;
const MAPPING_SPEC = {
  fields: [
    { name: 'Source', type: 'enum', values: MAPPING_SOURCES, default: 'manual' },
    { name: 'Connector', type: 'varchar', required: true },
    { name: 'ExternalKey', type: 'varchar', required: true },
    { name: 'ExternalIdentifier', type: 'varchar', required: true },
  ],
} as unknown as KindSpec;

/** Mappings of many records of one kind at once, oldest first (no N+1). */
export async function mappingsOf(deps: CampusDeps, kind: KindSpec, records: CampusRecord[]): Promise<Map<number, unknown>> {
  const rows = await deps.db.connectorMapping.findMany({ where: { ContextClass: kind.className, ContextID: { in: records.map((r) => r.ID) } }, orderBy: { ID: 'asc' } });
  const out = new Map<number, unknown[]>(records.map((r) => [r.ID, []]));
  for (const row of rows) out.get(row.ContextID)?.push(row);
  return out as Map<number, unknown>;
}

/** A record's mappings, for Staff. */
export async function recordMappings(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number) {
  requireLevel(viewer, MAPPING_READ_LEVEL);
  const record = await requireRecord(deps, kind, ident);
  const rows = await deps.db.connectorMapping.findMany({ where: { ContextClass: kind.className, ContextID: record.ID }, orderBy: { ID: 'asc' } });
  return { record, mappings: rows };
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/**
 * Maps a record to an external identifier. As Slate's Mapping::create, a triple (Connector,
 * ExternalKey, ExternalIdentifier) already mapped is re-pointed to this record; one that maps a
 * record of another kind is refused (Slate's lookup by class finds nothing there and fails).
 */
export async function createMapping(deps: CampusDeps, viewer: Viewer, kind: KindSpec, ident: string | number, input: RecordInput): Promise<{ mapping: ConnectorMapping; repointed: boolean }> {
  requireLevel(viewer, MAPPING_WRITE_LEVEL);
  const record = await requireRecord(deps, kind, ident);
  const { data, errors } = validateFields(MAPPING_SPEC, input, null);
  for (const name of ['Connector', 'ExternalKey'])
    if (typeof data[name] === 'string' && (data[name] as string).length > KEY_CHARS) errors[name] = `${name === 'Connector' ? 'Connector' : 'External Key'} is too long.`;
  if (Object.keys(errors).length) {
    const echo: RecordInput = {};
    for (const f of ['Source', 'Connector', 'ExternalKey', 'ExternalIdentifier']) if (Object.hasOwn(input, f)) echo[f] = input[f];
    throw new RecordValidationError(errors, echo);
  }
  const triple = { Connector: data.Connector as string, ExternalKey: data.ExternalKey as string, ExternalIdentifier: data.ExternalIdentifier as string };
  // Insert first, as Slate does: the unique index decides between two concurrent creates (no
  // transaction, so PostgreSQL's aborted-statement rule does not apply to the follow-up).
  try {
    const mapping = await deps.db.connectorMapping.create({
      data: { Class: MAPPING_CLASS, Created: deps.clock.now(), CreatorID: viewer.personId, ContextClass: kind.className, ContextID: record.ID, Source: (data.Source as string) ?? 'manual', ...triple },
    });
    return { mapping, repointed: false };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const existing = await deps.db.connectorMapping.findFirst({ where: triple });
  if (!existing) throw conflict('This connector mapping was changed at the same time; try again');
  if (existing.ContextClass !== kind.className) throw conflict(`${triple.Connector} ${triple.ExternalKey} ${triple.ExternalIdentifier} is already mapped to a record of another kind`);
  const mapping = await deps.db.connectorMapping.update({ where: { ID: existing.ID }, data: { ContextID: record.ID } });
  return { mapping, repointed: true };
}

/** Deletes one mapping (of the record `owner` names, when given) and returns it as it was. */
export async function deleteMapping(deps: CampusDeps, viewer: Viewer, mappingIdent: string | number, owner?: { kind: KindSpec; ident: string | number }) {
  requireLevel(viewer, MAPPING_WRITE_LEVEL);
  const id = parseId(mappingIdent);
  const mapping = id === null ? null : await deps.db.connectorMapping.findUnique({ where: { ID: id } });
  if (!mapping) throw notFound('Record not found');
  if (owner) {
    const record = await requireRecord(deps, owner.kind, owner.ident);
    if (mapping.ContextClass !== owner.kind.className || mapping.ContextID !== record.ID) throw notFound('Record not found');
  }
  await deps.db.connectorMapping.delete({ where: { ID: mapping.ID } });
  return mapping;
}

/**
 * Notes and mappings are context children: they go with the record they hang on (service.ts
 * deleteRecord calls this in its transaction), and with its descendants where the delete
 * cascades down a tree (groups, locations), so none is left naming a record that is gone.
 */
export async function deleteNotesAndMappings(deps: CampusDeps, kind: KindSpec, id: number) {
  const ids = kind.tree === 'cascade' ? await subtreeIds(deps, kind, id) : [id];
  await deps.db.connectorMapping.deleteMany({ where: { ContextClass: kind.className, ContextID: { in: ids } } });
  await deleteContextNotes(deps, kind, ids);
}

/** A record's mappings for ?include= and GraphQL: Staff only (not the person themselves). */
export function mappingsRelation(name: KindName): Relation {
  return { kind: 'ConnectorMapping', many: true, readLevel: MAPPING_READ_LEVEL, notSelf: true, load: (deps, records) => mappingsOf(deps, KINDS[name], records) };
}
