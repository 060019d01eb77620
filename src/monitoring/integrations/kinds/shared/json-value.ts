// Reading a channel value Healthchecks stores as JSON (its per-kind *Conf models): an object or
// nothing, and its fields by type, so each kind's config.ts words its own refusal.
export type JsonObject = Record<string, unknown>;

/** The value as a JSON object; null when it is not one (a plain value, malformed JSON, a list). */
export function jsonObject(value: string): JsonObject | null {
  if (!value.trimStart().startsWith('{')) return null;
  try {
    const doc = JSON.parse(value) as unknown;
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as JsonObject) : null;
  } catch {
    return null;
  }
}

/** A string field; undefined when absent or of another type. */
export const stringField = (doc: JsonObject, key: string): string | undefined => (typeof doc[key] === 'string' ? (doc[key] as string) : undefined);

/** A whole-number field (pydantic's strict int: not "3", not true); undefined otherwise. */
export const intField = (doc: JsonObject, key: string): number | undefined => (Number.isInteger(doc[key]) ? (doc[key] as number) : undefined);
