// Request bodies decoded strictly, before anything walks them: UTF-8 that does not decode,
// JSON nested past a limit and form keys nested past it are refused with a reason each
// transport words its own way. Nothing here knows a protocol's error shapes.

/** A request the transport refuses before its handler runs; `status` is the HTTP answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type BodyProblem = 'utf8' | 'json' | 'depth';

export class BodyParseError extends Error {
  constructor(readonly problem: BodyProblem) {
    super(`request body: ${problem}`);
    this.name = 'BodyParseError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BodyParseError('utf8');
  }
}

/**
 * Whether JSON text opens more than `max` arrays/objects at once. A linear scan of the text,
 * so a body nested thousands deep is refused before JSON.parse builds it and long before a
 * recursive walk (validation, JSON.stringify of an echo) would overflow the stack.
 */
export function jsonNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether an already parsed value nests arrays/objects more than `max` deep. Iterative (an
 * explicit stack, stopping at the first branch too deep), so checking cannot overflow the
 * stack the way the walks it protects would.
 */
export function valueNestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** UTF-8 JSON nested at most `maxDepth` levels (a scalar is 0, `{}` is 1). */
export function parseJson(bytes: Uint8Array, maxDepth: number): unknown {
  const text = decodeUtf8(bytes);
  if (jsonNestedDeeperThan(text, maxDepth)) throw new BodyParseError('depth');
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyParseError('json');
  }
}

const hex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** Percent-decoding as PHP's urldecode: `+` is a space, a malformed `%` stays as it is. */
function percentDecode(bytes: Uint8Array): string {
  const out = Buffer.allocUnsafe(bytes.length);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    let b = bytes[i]!;
    if (b === 0x2b) b = 0x20;
    else if (b === 0x25 && i + 2 < bytes.length && hex(bytes[i + 1]!) && hex(bytes[i + 2]!)) {
      b = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    }
    out[j++] = b;
  }
  return decodeUtf8(out.subarray(0, j));
}

/** Levels a PHP-style form key names: `a` is 1, `a[b]` 2, `a[b][c]` 3. */
const formKeyDepth = (key: string) => 1 + (key.match(/\[/g)?.length ?? 0);

/**
 * `application/x-www-form-urlencoded` pairs, in order. Unlike URLSearchParams, bytes that are
 * not UTF-8 (raw or percent-encoded) are an error instead of turning into U+FFFD, and keys
 * nested past `maxDepth` (PHP's max_input_nesting_level) are refused.
 */
export function parseForm(bytes: Uint8Array, maxDepth: number): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x26) continue;
    const part = bytes.subarray(start, i);
    start = i + 1;
    if (!part.length) continue;
    const eq = part.indexOf(0x3d);
    const key = percentDecode(eq < 0 ? part : part.subarray(0, eq));
    const value = eq < 0 ? '' : percentDecode(part.subarray(eq + 1));
    if (formKeyDepth(key) > maxDepth) throw new BodyParseError('depth');
    pairs.push([key, value]);
  }
  return pairs;
}

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
