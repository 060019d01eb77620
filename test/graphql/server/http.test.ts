// GraphQL over HTTP (https://graphql.github.io/graphql-over-http/draft/) on a real server:
// request size limits, status codes by media type, and an `extensions.code` on every error.
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_STRING_BYTES, MAX_REQUEST_BYTES } from '../../../src/graphql/server/limits.ts';
import { useWorld } from '../../helpers/fixtures.ts';

const w = useWorld();

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const JSON_TYPE = 'application/json';

interface Answer {
  status: number;
  type: string | null;
  connection: string | null;
  text: string;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

async function send(init: { method?: string; path?: string; body?: BodyInit; headers?: Record<string, string>; duplex?: 'half' }): Promise<Answer> {
  const res = await fetch(`${w.url}${init.path ?? '/graphql'}`, {
    method: init.method ?? 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key, ...init.headers },
    body: init.body,
    ...(init.duplex ? { duplex: init.duplex } : {}),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), connection: res.headers.get('connection'), text, body: JSON.parse(text) };
}

const post = (payload: unknown, accept?: string) => send({ body: JSON.stringify(payload), headers: accept ? { Accept: accept } : {} });
const codes = (a: Answer) => a.body.errors?.map((e) => e.extensions?.code);

const deep = '{ sections { nodes { course { sections { term { parent { parent { parent { parent { parent { parent { databaseId } } } } } } } } } } } }';
const aliased = `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: project { name }`).join(' ')} }`;
const costly = '{ project { checks(first: 1000) { nodes { pings(first: 1000) { n } } } } }';
const directives = `{ project { ${Array.from({ length: 51 }, (_, i) => `f${i}: name @include(if: true)`).join(' ')} } }`;
const tokens = `{ project { ${'name '.repeat(5000)}} }`;

/** Operations that fail before execution, with the code each must carry. */
const REQUEST_ERRORS: Array<[string, string, unknown]> = [
  ['a syntax error', 'GRAPHQL_PARSE_FAILED', { query: '{ project {' }],
  ['an unknown field', 'GRAPHQL_VALIDATION_FAILED', { query: '{ project { nope } }' }],
  ['a query past the depth limit', 'QUERY_LIMIT_EXCEEDED', { query: deep }],
  ['a query past the alias limit', 'QUERY_LIMIT_EXCEEDED', { query: aliased }],
  ['a query past the cost limit', 'QUERY_LIMIT_EXCEEDED', { query: costly }],
  ['a query past the directive limit', 'QUERY_LIMIT_EXCEEDED', { query: directives }],
  ['a query past the token limit', 'QUERY_LIMIT_EXCEEDED', { query: tokens }],
];

describe('request size limits', () => {
  it('refuses a 12 MB body with 413 and a JSON error', async () => {
    const body = JSON.stringify({ query: '{ project { name } }', variables: { pad: 'x'.repeat(12 * 1024 * 1024) } });
    const a = await send({ body });
    expect(a.status).toBe(413);
    expect(a.type).toContain(JSON_TYPE);
    expect(a.body).toEqual({ errors: [{ message: `request body too large: at most ${MAX_REQUEST_BYTES} bytes`, extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] });
    // The connection was not left in a bad state: the next request is answered.
    expect((await post({ query: '{ project { name } }' })).body).toEqual({ data: { project: { name: 'Alice' } } });
  });

  it('counts a body sent without Content-Length as it streams in', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"query": "{ project { name } }", "variables": {}'));
        else if (sent > 2 * MAX_REQUEST_BYTES) return controller.close();
        else controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const a = await send({ body: stream, duplex: 'half' });
    expect(a.status).toBe(413);
    expect(codes(a)).toEqual(['REQUEST_ENTITY_TOO_LARGE']);
    // The rest of the body is not read, so the connection cannot carry a next request: closed.
    expect(a.connection).toBe('close');
    // Requests read whole keep theirs.
    expect((await post({ query: '{ project { name } }' })).connection).toBe('keep-alive');
  });

  it('accepts a body just under the limit', async () => {
    // The padding rides in `extensions`, which no field bounds (a check filter's slug is 100 characters at most).
    const query = '{ project { name checks { totalCount } } }';
    const envelope = JSON.stringify({ query, extensions: { pad: '' } }).length;
    const a = await post({ query, extensions: { pad: 'x'.repeat(MAX_REQUEST_BYTES - envelope) } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ data: { project: { name: 'Alice', checks: { totalCount: 0 } } } });
  });

  it('refuses a GET whose query string is longer than the limit with 414 and a JSON error', async () => {
    // Letters need no escaping: the URL stays under Node's own 16 KiB limit on the request head.
    const query = `query ${'Q'.repeat(MAX_QUERY_STRING_BYTES)} { project { name } }`;
    const a = await send({ method: 'GET', path: `/graphql?query=${encodeURIComponent(query)}` });
    expect(a.status).toBe(414);
    expect(a.type).toContain(JSON_TYPE);
    expect(a.body).toEqual({
      errors: [{ message: `query string too long: at most ${MAX_QUERY_STRING_BYTES} bytes; send larger operations in a POST body`, extensions: { code: 'REQUEST_URI_TOO_LONG' } }],
    });
    const short = await send({ method: 'GET', path: `/graphql?query=${encodeURIComponent('{ project { name } }')}` });
    expect(short.body).toEqual({ data: { project: { name: 'Alice' } } });
  });
});

describe(`Accept: ${GRAPHQL_RESPONSE}`, () => {
  it.each(REQUEST_ERRORS)('answers %s with 400 and %s', async (_name, code, payload) => {
    const a = await post(payload, GRAPHQL_RESPONSE);
    expect(a.status).toBe(400);
    expect(a.type).toContain(GRAPHQL_RESPONSE);
    expect(a.body.data).toBeUndefined();
    expect(a.body.errors![0]!.extensions!.code).toBe(code);
    expect(codes(a)!.every(Boolean)).toBe(true);
  });

  it('names the limit a query broke, without a "Syntax Error:" prefix', async () => {
    const limits = await Promise.all([deep, aliased, costly, directives, tokens].map((query) => post({ query }, GRAPHQL_RESPONSE)));
    expect(limits.map((a) => a.body.errors![0])).toEqual([
      { message: 'Query depth limit of 10 exceeded, found 12.', extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'depth' } },
      { message: 'Aliases limit of 30 exceeded, found 31.', extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'aliases' } },
      { message: expect.stringMatching(/^Query Cost limit of 50000 exceeded, found \d+\.$/), extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'cost' } },
      { message: 'Directives limit of 50 exceeded, found 51.', extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'directives' } },
      { message: 'Token limit of 5000 exceeded.', extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit: 'tokens' } },
    ]);
    for (const a of limits) expect(a.text).not.toContain('Syntax Error');
  });

  it('answers invalid variables with 400 and BAD_USER_INPUT', async () => {
    const missing = await post({ query: 'query($n: Int!) { project { checks(first: $n) { totalCount } } }' }, GRAPHQL_RESPONSE);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ message: 'Variable "$n" of required type "Int!" was not provided.', extensions: { code: 'BAD_USER_INPUT' } })]);
    // An input scalar's refusal is the client's error too, not a masked "Unexpected error.".
    const date = await post({ query: 'mutation($d: DateTime) { createBlogPost(input: { title: "T", published: $d }) { databaseId } }', variables: { d: 'soon' } }, GRAPHQL_RESPONSE);
    expect(date.status).toBe(400);
    expect(date.body.errors).toEqual([
      expect.objectContaining({ message: 'Variable "$d" got invalid value "soon"; Expected type "DateTime". invalid DateTime', extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
  });

  it('answers a body that is not JSON with 400, without the parser\'s internals', async () => {
    const a = await send({ body: '{"query": "{ project { name } }"', headers: { Accept: GRAPHQL_RESPONSE } });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
    expect(a.text).not.toMatch(/originalError|stack|SyntaxError|position/);
  });

  it('keeps 200 for a response with data, field errors included', async () => {
    const a = await post({ query: '{ project { name checks(first: -1) { totalCount } } }' }, GRAPHQL_RESPONSE);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ data: null, errors: [{ path: ['project', 'checks'], extensions: { code: 'BAD_USER_INPUT' } }] });
  });
});

describe(`Accept: ${JSON_TYPE} (the legacy media type)`, () => {
  it.each(REQUEST_ERRORS)('answers %s with 200, as the spec allows, and %s', async (_name, code, payload) => {
    for (const accept of [JSON_TYPE, undefined]) {
      const a = await post(payload, accept);
      expect(a.status).toBe(200);
      expect(a.type).toContain(JSON_TYPE);
      expect(a.body.errors![0]!.extensions!.code).toBe(code);
    }
  });

  it('answers a body that is not JSON with 400 all the same', async () => {
    for (const body of ['{"query": ', '', 'query { project { name } }']) {
      const a = await send({ body, headers: { Accept: JSON_TYPE } });
      expect(a.status).toBe(400);
      expect(a.body).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
    }
  });
});

describe('every error has an extensions.code', () => {
  const cases: Array<[string, Parameters<typeof send>[0], number]> = [
    ['a POST of text/plain', { body: '{"query":"{ project { name } }"}', headers: { 'Content-Type': 'text/plain' } }, 415],
    ['a PUT', { method: 'PUT', body: '{"query":"{ project { name } }"}' }, 405],
    ['a GET without a query', { method: 'GET' }, 200],
    ['a GET of a mutation', { method: 'GET', path: `/graphql?query=${encodeURIComponent('mutation { pauseCheck(id: "x") { name } }')}` }, 405],
    ['a query that is not a string', { body: '{"query": 1}' }, 400],
    ['a batch (not supported)', { body: '[{"query": "{ project { name } }"}]' }, 400],
    ['a null body', { body: 'null' }, 400],
    ['an unknown operation name', { body: JSON.stringify({ query: 'query A { project { name } }', operationName: 'B' }) }, 400],
    ['a missing API key', { body: JSON.stringify({ query: '{ project { name } }' }), headers: { 'X-Api-Key': '' } }, 200],
    ['a wrong API key', { body: JSON.stringify({ query: '{ project { name } }' }), headers: { 'X-Api-Key': 'x'.repeat(32) } }, 200],
  ];

  it.each(cases)('%s', async (_name, init, status) => {
    const a = await send(init);
    expect(a.status).toBe(status);
    expect(a.type).toContain(JSON_TYPE);
    expect(a.body.errors!.length).toBeGreaterThan(0);
    for (const error of a.body.errors!) expect(error.extensions?.code, error.message).toEqual(expect.any(String));
  });
});
