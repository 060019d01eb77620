// Healthchecks' webhook placeholders (hc/integrations/webhook/transport.py) and its replace()
// (hc/lib/string.py), reproduced exactly: the template is split at every "$" and each piece
// takes the first placeholder, in the context's insertion order, that it starts with. So a
// placeholder that appears inside a substituted value is never expanded, and "$TAG10" with a
// first tag becomes that tag followed by "0", as in Healthchecks.

export function replacePlaceholders(template: string, ctx: Map<string, string>): string {
  const [first, ...parts] = template.split('$');
  let result = first!;
  for (const part of parts) {
    let piece = '$' + part;
    for (const [placeholder, value] of ctx) {
      if (piece.startsWith(placeholder)) {
        piece = value + piece.slice(placeholder.length);
        break;
      }
    }
    result += piece;
  }
  return result;
}

/** Python's urllib.parse.quote with its default safe "/": letters, digits, "_.-~/" stay. */
export function pythonQuote(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.\-~/]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// Python's json.dumps lives in shared/ (the JSON kinds store their values with it too).
export { pythonJson, pythonJsonString } from '../shared/python-json.ts';

/** Header values are Latin-1: other characters become XML character references, as Healthchecks does. */
export function latin1(s: string): string {
  return Array.from(s, (c) => (c.codePointAt(0)! > 0xff ? `&#${c.codePointAt(0)};` : c)).join('');
}

/** Python's isoformat() of the flip time without microseconds, in UTC. */
export function isoNow(d: Date): string {
  return d.toISOString().slice(0, 19) + '+00:00';
}
