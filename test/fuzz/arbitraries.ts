// Generators of hostile input: methods, path segments, query strings, bodies and headers.
// Everything ends as bytes on the wire (see harness.ts), so each generator yields strings or
// Buffers already encoded the way a client (or an attacker) would send them.
import fc from 'fast-check';

/** Percent-encodes every byte outside [A-Za-z0-9-._~] (a lone surrogate goes out as U+FFFD). */
export const enc = (s: string) => Buffer.from(s, 'utf8').toString('latin1').replace(/[^A-Za-z0-9\-._~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));

export const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'SEARCH', 'LOCK', 'M-SEARCH') },
);

/** Strings with the characters parsers trip on: NUL, controls, unpaired surrogates, RTL marks. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\u0000', '\u0000abc', '\u001b[31m', '\ud800', 'a\udc00b', '\ud83d', '\u202e', '\ufeff', '\r\n', '%', '%%', '../', '..', '*', '"\'<>', '\\', '{}', '[]', 'null', 'undefined', 'NaN', '-0', ''),
  fc.string({ maxLength: 4 }).map((s) => s.repeat(2000)),
);

/** Numbers at and past every boundary a parser or a 32/64-bit column cares about. */
export const extremeNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324, 1.5, 0.1),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Number-ish text, for query parameters and path segments. */
export const numericText = fc.oneof(
  extremeNumber.map(String),
  fc.constantFrom('1e308', '9'.repeat(400), '-0', '0x10', '1_000', ' 1', '1 ', '+1', '١٢', 'Infinity', 'NaN', '00000000000000000001', '-9223372036854775809', '18446744073709551616'),
);

/** A path segment: plausible, garbage, huge, or percent-encoded (valid and invalid). */
export const segment = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }).map(enc) },
  { weight: 2, arbitrary: numericText.map(enc) },
  { weight: 2, arbitrary: nastyString.map(enc) },
  { weight: 1, arbitrary: fc.constantFrom('%FF', '%C0%AF', '%ED%A0%80', '%00', '%', '%2', '%zz', '%2F', '%252F', '..%2F..', '%E2%80%AE', '%F0%9F', '.', '..', '') },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 6000 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.uuid().map((u) => u) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{40}$/) },
);

const QUERY_NAMES = ['limit', 'offset', 'sort', 'dir', 'q', 'include', 'slug', 'tag', 'seconds', 'start', 'end', 'create', 'rid', '_session', 'api_key', 'format', 'ID', 'Handle'];

/** `?k=v&...` from the parameters our routes read, with random and extreme values. */
export const queryString = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: fc.constantFrom('tag[]', 'a[b][c]', '__proto__', 'constructor', '', '%FF', 'q[' + '['.repeat(100)) }),
      fc.oneof(
        numericText.map(enc),
        nastyString.map(enc),
        fc.constantFrom('DESC', 'ASC', 'desc', 'ID', 'Created', 'Title', '__proto__', 'constructor', 'toString', 'Person,Course,Comments,__proto__', 'Sections,Groups,Members,People,GroupMemberships,Students,Teachers,Participants,Term,Location,PrimaryEmail,PrimaryPhone,PrimaryPostal,Comments,Parent,Course', '1', '%FF', '%', 'up', 'down', '2026-01-05T10:00:00Z', '9999-99-99'),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));

/** `[[[...]]]` or `{"a":{"a":...}}` with `depth` levels. */
const nestedJson = fc.tuple(fc.integer({ min: 30, max: 600 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
);

/** A JSON value of any type, wrong ones included. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  extremeNumber,
  nastyString,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 }),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
);

/** JSON text for an object built from `fields` (names a route reads) with values of any type. */
export function jsonObjectText(fields: string[]): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '\u0000') });
  return fc.tuple(fc.array(fc.tuple(key, anyValue), { maxLength: 8 }), fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: nestedJson })).map(([pairs, deep]) => {
    // Built by hand: JSON.stringify would drop a `__proto__` own key set through assignment.
    const parts = pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`);
    if (deep) parts.push(`${JSON.stringify(fields[0] ?? 'x')}:${deep}`);
    return `{${parts.join(',')}}`;
  });
}

/** Form bodies with PHP bracket keys, repeated keys and broken percent-encoding. */
export function formText(fields: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fields) },
    { weight: 1, arbitrary: fc.constantFrom(...fields).map((f) => `${f}[]`) },
    { weight: 1, arbitrary: fc.constantFrom(...fields).map((f) => `${f}[a][b]`) },
    { weight: 1, arbitrary: fc.constantFrom('data[0][ID]', 'data[]', '__proto__[x]', 'constructor[prototype][x]', '_LOGIN[username]', 'a' + '[x]'.repeat(100)) },
  );
  const value = fc.oneof(numericText.map(enc), nastyString.map(enc), fc.constantFrom('%FF', '%', '%ZZ', '+', '%00', ''));
  return fc.array(fc.tuple(key, value), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json\t; x', 'APPLICATION/JSON', '', 'garbage/;;;'];

/** A body and the Content-Type sent with it (which need not match). */
export function body(fields: string[]): fc.Arbitrary<{ body?: Buffer; contentType?: string }> {
  const bytes = fc.oneof(
    { weight: 4, arbitrary: jsonObjectText(fields).map((t) => Buffer.from(t)) },
    { weight: 2, arbitrary: formText(fields).map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: nestedJson.map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: anyValue.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '\xff\xfe{}', '{"a":"\ud800"}', '{"a":1,"a":2}', '[', 'null', '""', '1e999', '{"data":[' + '1,'.repeat(5000) + '1]}').map((t) => Buffer.from(t, 'latin1')) },
    { weight: 1, arbitrary: fc.integer({ min: 1024 * 1024 - 10, max: 3 * 1024 * 1024 }).map((n) => Buffer.alloc(n, 0x61)) },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 5, arbitrary: fc.record({ body: bytes, contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 4 }) }) },
  );
}

/** Header values that are not what a route expects (all must be legal header bytes). */
export const garbageToken = fc.oneof(
  fc.string({ maxLength: 64 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')),
  fc.stringMatching(/^[A-Za-z0-9_-]{32}$/),
  fc.constantFrom('', ' ', 'null', 'undefined', '0', 'Token', 'x'.repeat(8000), '\t', 'é'),
);

/**
 * A campus credential: one of `tokens` mostly (the accounts' tokens, made in a beforeAll, so
 * call this inside a test), a garbage token or none sometimes.
 */
export const campusToken = (tokens: readonly string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...tokens) }, { weight: 1, arbitrary: garbageToken }, { weight: 1, arbitrary: fc.constant(null) });

/** A campus request's headers: `Authorization: <scheme> <token>` when there is a token, and the body's type. */
export function campusHeaders(token: string | null, contentType: string | undefined, scheme: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.Authorization = `${scheme} ${token}`;
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  return headers;
}
