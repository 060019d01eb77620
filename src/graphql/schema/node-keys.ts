// The keys inside global IDs. A global ID is base64("<Type>:<key>") (the relay plugin's
// encoding); the key is the row's primary key. Parsing never throws: a key that names no row
// of the type is null, which `node` answers as null (node.ts).
import { MAX_INT } from '../../campus/limits.ts';

/** An Int primary key: 1 to 2^31 - 1, written without sign or leading zeros. */
export function intKey(key: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(key)) return null;
  const n = Number(key);
  return n <= MAX_INT ? n : null;
}

/** A UUID primary key (projects), lower-case as stored. */
export function uuidKey(key: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key) ? key : null;
}

/**
 * A key as the loaders receive it. The parsed key normally, but the plugin also hands a row's
 * own key back (to load a relation it is missing), which may be a number.
 */
export const asInt = (key: unknown): number => (typeof key === 'number' ? key : (intKey(String(key)) ?? 0));

/**
 * prismaNode's `id` option with a key parser: the plugin hands `parse` on to the node at run
 * time (prismaNode spreads its id options into the relay node's), but its type leaves it out.
 */
export function nodeId<P>(resolve: (parent: P) => number | string, parse: (key: string) => unknown): { resolve: (parent: P) => number | string } {
  return Object.assign({ resolve }, { parse });
}
