// Reading a Slate-style request: form fields (Slate's way) or a JSON body, merged over the
// query string like PHP's $_REQUEST; form keys nest as PHP nests them (`data[0][Title]`,
// `tags[]`); the session token from `Authorization: Token <token>`.
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

type Fields = Record<string, unknown>;

/** Containers made by nesting (not values): their next `[]` index, as PHP keeps it. */
type Nest = { containers: Map<Fields, number> };

const child = (nest: Nest, node: Fields, key: string): Fields => {
  const existing = node[key];
  if (existing && typeof existing === 'object' && nest.containers.has(existing as Fields)) return existing as Fields;
  // A scalar at the key is replaced, as PHP's parse_str does for `a=1&a[b]=2`.
  const made: Fields = Object.create(null);
  nest.containers.set(made, 0);
  node[key] = made;
  return made;
};

/** The key a `[]` takes: one past the largest integer key so far (PHP's rule). */
function slot(nest: Nest, node: Fields, key: string): string {
  if (key !== '') {
    if (/^(0|[1-9]\d{0,8})$/.test(key)) nest.containers.set(node, Math.max(nest.containers.get(node) ?? 0, Number(key) + 1));
    return key;
  }
  const next = nest.containers.get(node) ?? 0;
  nest.containers.set(node, next + 1);
  return String(next);
}

/** `data[0][Title]=x` as `{data: {0: {Title: x}}}`; a key that is not bracketed stays flat. */
function put(nest: Nest, root: Fields, key: string, value: string) {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
  if (!m) return void (root[key] = value);
  const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  let node = root;
  for (let i = 0; i < path.length - 1; i++) node = child(nest, node, slot(nest, node, path[i]!));
  node[slot(nest, node, path.at(-1)!)] = value;
}

/** Containers whose keys are all list indexes become arrays (in index order), so `/save` reads `data` as JSON's. */
function settle(nest: Nest, value: unknown): unknown {
  if (!value || typeof value !== 'object' || !nest.containers.has(value as Fields)) return value;
  const node = value as Fields;
  for (const k of Object.keys(node)) node[k] = settle(nest, node[k]);
  const keys = Object.keys(node);
  return keys.length && keys.every((k) => /^(0|[1-9]\d*)$/.test(k)) ? keys.map((k) => node[k]) : node;
}

/** Form pairs as PHP's $_POST: nested by bracketed keys. Depth is bounded by the parser. */
export function nestForm(pairs: Array<[string, string]>): Fields {
  const nest: Nest = { containers: new Map() };
  const root: Fields = Object.create(null);
  nest.containers.set(root, 0);
  for (const [k, v] of pairs) put(nest, root, k, v);
  for (const k of Object.keys(root)) root[k] = settle(nest, root[k]);
  return root;
}

/**
 * A field that names one value (an ID, a handle, a role) as text: numbers as they print, absent
 * as ''. A nested form field or a JSON object or list answers 400 rather than being coerced.
 */
export function singleField(f: Fields, name: string): string {
  const v = f[name];
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new HttpError(400, `${name} must be a single value`);
}

/** Slate's login form fields (`_LOGIN[username]`, `_LOGIN[password]`), or plain `username`/`password`. */
export function loginFields(f: Fields): { username: string; password: string } {
  const login = (f._LOGIN && typeof f._LOGIN === 'object' ? f._LOGIN : {}) as Fields;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { username: text(login.username ?? f.username), password: text(login.password ?? f.password) };
}

/**
 * The request's fields: query string, then the POST body over it. A null-prototype object, so
 * a `__proto__` or `constructor` key is just a key. Parsed once per request: the login throttle
 * and the session token read them before the handler does (none of them changes them).
 */
export function readFields(req: IncomingMessage): Promise<Record<string, unknown>> {
  let fields = fieldsRead.get(req);
  if (!fields) fieldsRead.set(req, (fields = parseFields(req)));
  return fields;
}

const fieldsRead = new WeakMap<IncomingMessage, Promise<Record<string, unknown>>>();

async function parseFields(req: IncomingMessage): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = Object.create(null);
  const url = req.url ?? '';
  const search = url.indexOf('?');
  if (search >= 0) {
    // Node keeps the request line's bytes one per character (latin1).
    Object.assign(fields, nestForm(parsed(() => parseForm(Buffer.from(url.slice(search + 1), 'latin1'), MAX_DEPTH))));
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
    return Object.assign(fields, nestForm(parsed(() => parseForm(raw, MAX_DEPTH))));
  }
  throw new HttpError(415, `Unsupported Content-Type ${JSON.stringify(type.slice(0, 100))}: send application/x-www-form-urlencoded or application/json`);
}

/**
 * The session token where Slate's Session::getFromRequest looks for it: `Authorization: Token …`,
 * then a POSTed form's `_session` field, then `?_session=`. A body that cannot be read gives no
 * token here; the handler that reads it answers its 400, 413 or 415.
 */
export async function sessionToken(req: IncomingMessage, query: URLSearchParams): Promise<string | null> {
  const auth = req.headers.authorization;
  const m = auth ? /^Token\s+(\S+)$/i.exec(auth) : null;
  if (m) return m[1]!;
  const type = mediaType(req.headers['content-type']);
  if (req.method === 'POST' && (type === '' || type === 'application/x-www-form-urlencoded')) {
    // PHP's $_POST holds form bodies only: a `_session` in a JSON body is not a token there.
    const posted = await readFields(req).then(
      (fields) => fields._session,
      () => undefined,
    );
    if (typeof posted === 'string' && posted !== '') return posted;
  }
  return query.get('_session');
}
