// Reading a Slate-style request: form fields (Slate's way) or a JSON body, merged over the
// query string like PHP's $_REQUEST; the session token from `Authorization: Token <token>`.
// Everything is decoded strictly and bounded before a handler sees it: a body over 1 MB is
// 413, bytes that are not UTF-8, broken JSON and input nested past 64 levels are 400, a body
// of another type is 415.
import type { IncomingMessage } from 'node:http';
import { BodyParseError, HttpError, mediaType, parseForm, parseJson } from '../../src/http/body.ts';
import { BodyTooLarge, readBody } from '../../src/http/respond.ts';

/** Slate runs on PHP's defaults; 1 MB is far above any record (text fields included) and caps memory per request. */
export const MAX_BODY = 1024 * 1024;
/** PHP's max_input_nesting_level; our deepest real input (/save with a tags array) is 4. */
export const MAX_DEPTH = 64;

const PROBLEMS: Record<BodyParseError['problem'], string> = {
  utf8: 'Request is not valid UTF-8',
  json: 'Request body is not valid JSON',
  depth: `Request is nested too deeply: at most ${MAX_DEPTH} levels`,
};

function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof BodyParseError) throw new HttpError(400, PROBLEMS[err.problem]);
    throw err;
  }
}

/**
 * The request's fields: query string, then the POST body over it. A null-prototype object, so
 * a `__proto__` or `constructor` key is just a key.
 */
export async function readFields(req: IncomingMessage): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = Object.create(null);
  const url = req.url ?? '';
  const search = url.indexOf('?');
  if (search >= 0) {
    // Node keeps the request line's bytes one per character (latin1).
    for (const [k, v] of parsed(() => parseForm(Buffer.from(url.slice(search + 1), 'latin1'), MAX_DEPTH))) fields[k] = v;
  }
  if (req.method !== 'POST') return fields;
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpError(413, `Request body is too large: at most ${MAX_BODY / 1024 / 1024} MB`);
    throw err;
  }
  if (!raw.length) return fields;
  const type = mediaType(req.headers['content-type']);
  // Slate checks only the prefix of the type for JSON.
  if (type.startsWith('application/json')) {
    const body = parsed(() => parseJson(raw, MAX_DEPTH));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'Request body must be a JSON object');
    return Object.assign(fields, body);
  }
  // application/x-www-form-urlencoded, and bodies sent without a type (as curl -d does).
  if (type === '' || type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of parsed(() => parseForm(raw, MAX_DEPTH))) fields[k] = v;
    return fields;
  }
  throw new HttpError(415, `Unsupported Content-Type ${JSON.stringify(type.slice(0, 100))}: send application/x-www-form-urlencoded or application/json`);
}

export function sessionToken(req: IncomingMessage, query: URLSearchParams): string | null {
  const auth = req.headers.authorization;
  const m = auth ? /^Token\s+(\S+)$/i.exec(auth) : null;
  return m ? m[1]! : query.get('_session');
}
