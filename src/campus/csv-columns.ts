// The columns of a kind's CSV export and their header labels. Slate's CSV::writeToStream heads
// each column with the field's label, which ActiveRecord::_initField derives from the field
// name (Inflector::labelIdentifier: "FirstName" → "First name", "CreatorID" → "Creator ID",
// "ID" → "<Singular noun> ID"). The columns are the record's stored fields as its JSON has
// them, so the same visibility rules apply: Staff-only fields are columns only for Staff.
import { hasLevel, type KindSpec } from './kinds.ts';
import { InvalidRequestError } from './limits.ts';
import type { Viewer } from './viewer.ts';

/** Slate's Inflector::labelIdentifier: split camel case, sentence case, `id` spelled `ID`. */
export function labelIdentifier(name: string): string {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return (spaced.charAt(0).toUpperCase() + spaced.slice(1)).replace(/\bid(s?)\b/gi, 'ID$1');
}

/** A field's label as _initField gives it (no campus field declares its own label in Slate). */
export const fieldLabel = (kind: KindSpec, name: string) => labelIdentifier(name === 'ID' ? `${kind.noun} ID` : name);

/** The fields every record has before its own (ActiveRecord's, then VersionedRecord's). */
export const standardFields = (kind: KindSpec): string[] =>
  kind.versioned ? ['ID', 'Class', 'Created', 'CreatorID', 'RevisionID', 'Modified', 'ModifierID'] : ['ID', 'Class', 'Created', 'CreatorID'];

export interface CsvColumn {
  name: string;
  label: string;
}

/** At most this many names in `columns=`: every kind has fewer than 30 fields. */
export const MAX_CSV_COLUMNS = 100;

/**
 * The columns for `viewer`: every stored field it may see, in declaration order, or the ones
 * `requested` names (Slate's `?columns=`), in that order. A name that is no field of the kind
 * is a 400; a Staff-only field asked for by someone else is left out, as its value would be.
 */
export function csvColumns(kind: KindSpec, viewer: Viewer, requested: string[] = []): CsvColumn[] {
  const visible = [...standardFields(kind), ...kind.fields.filter((f) => !f.readLevel || hasLevel(viewer.level, f.readLevel)).map((f) => f.name)];
  if (!requested.length) return visible.map((name) => ({ name, label: fieldLabel(kind, name) }));
  if (requested.length > MAX_CSV_COLUMNS) throw new InvalidRequestError(`columns names too many fields: at most ${MAX_CSV_COLUMNS}`);
  const known = new Set([...standardFields(kind), ...kind.fields.map((f) => f.name)]);
  const unknown = requested.find((name) => !known.has(name));
  if (unknown !== undefined) throw new InvalidRequestError(`Unknown column: ${unknown.slice(0, 100)}`);
  const shown = new Set(visible);
  return [...new Set(requested)].filter((name) => shown.has(name)).map((name) => ({ name, label: fieldLabel(kind, name) }));
}
