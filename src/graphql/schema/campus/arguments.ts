// How campus arguments that name a record read, one reading per kind of argument (on
// id-argument.ts): each takes Slate's ID as it always did, or the global `id` a query returned
// for that record. `id` (lookups and mutations) takes nothing else; `section:`, `person:`,
// `group:` and `groups:` also take a handle (a person's username or email), as REST does; the
// `<field>Id` list filters take the referenced record's ID.
import type { KindSpec } from '../../../campus/kinds.ts';
import { MAX_INT } from '../../../campus/limits.ts';
import { globalKey, intArgument } from '../id-argument.ts';
import { intKey } from '../node-keys.ts';

/**
 * An ID past the column's range. The records service answers it as a missing ID ("Record not
 * found", null from a lookup) without a query, after the same checks (login, level) a missing
 * ID gets first: another type's global ID or a malformed one is answered exactly like one.
 */
const NO_RECORD = MAX_INT + 1;

/** An `id` argument: the Slate ID of the record of `kind` it names, else one that names none. */
export const recordId = (raw: string | number, kind: KindSpec): number => intArgument(raw, [kind.name]) ?? NO_RECORD;

/**
 * A record argument that also takes a handle: a global ID of `kind` reads as its Slate ID; any
 * other value is passed on as it came, to be found as before (an ID, a handle, a username).
 * Another type's global ID is then a handle no record has: "<kind> not found: <what was sent>".
 */
export const recordIdent = (raw: string | number, kind: KindSpec): string | number => globalKey(raw, [kind.name], intKey)?.key ?? String(raw);

/** A `<field>Id` filter's condition on the column: the ID it names, or none when it names no record of `kind`. */
export const refCondition = (raw: string | number, kind: KindSpec): number | { in: number[] } => intArgument(raw, [kind.name]) ?? { in: [] };
