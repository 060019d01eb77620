// Arguments that name an object (`id`, a subscription's `checkId`) take either spelling of it:
// the key they always took (a check's or channel's UUID, a project's UUID, a campus row's
// Slate ID) or the global `id` a query returned for it (node.ts), so a client can pass back
// the `id` it caches objects by. The two never collide: a global ID is padded base64 of
// "<Type>:<key>", which no UUID (it has dashes) and no decimal number decodes to.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { intKey } from './node-keys.ts';

const BASE64 = /^[A-Za-z0-9+/]{4,}={0,2}$/;

/**
 * What `raw` is as a global ID: null when it is none (the field reads it as it always has);
 * else `{ key }`, the key read by the type's own parser when the ID is of one of `types`, and
 * `{ key: null }` when it names nothing such a field could find (another type, a key of the
 * wrong shape). The field then answers as for a missing object.
 */
export function globalKey<K>(raw: string | number, types: readonly string[], parse: (key: string) => K | null): { key: K | null } | null {
  const text = String(raw);
  // Only base64 can be a global ID. Checked first: decodeGlobalID refuses anything else by
  // throwing a GraphQLError, whose stack trace costs about 30 µs, and a list argument of
  // 20,000 odd strings held the event loop for over half a second.
  if (!BASE64.test(text)) return null;
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(text);
  } catch {
    return null;
  }
  return { key: types.includes(decoded.typename) ? parse(decoded.id) : null };
}

/**
 * An argument naming a row by an Int key (a campus record's Slate ID, its `databaseId`): the key
 * as it always took it, a decimal number (an Int or a string of digits), or the row's global ID
 * when it is of one of `types`. Null when it names no such row: another type's global ID, a
 * malformed one, a number outside the key's range (1 to 2^31 - 1). A global ID never reads as a
 * number: its base64 starts with a letter (that of "<Type>:").
 */
export function intArgument(raw: string | number, types: readonly string[]): number | null {
  const text = String(raw);
  if (/^\d+$/.test(text)) return intKey(text.replace(/^0+/, ''));
  return globalKey(text, types, intKey)?.key ?? null;
}
