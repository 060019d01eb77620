// Python's json.dumps as Healthchecks calls it to store a channel's value (and to fill webhook
// placeholders): ", " and ": " separators, non-ASCII as \uXXXX escapes (ensure_ascii), the keys
// in the order given, so a value written here is byte for byte the one Healthchecks' form stores.

/** Python's json.dumps of a string (ensure_ascii: DEL and non-ASCII as \uXXXX escapes). */
export function pythonJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's json.dumps of a value; an undefined field is left out (Python has none). */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? pythonJsonString(value) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${pythonJsonString(k)}: ${pythonJson(v)}`)
    .join(', ')}}`;
}
