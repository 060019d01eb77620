// Which GraphQL errors are the client's (shown, with a code) and which are ours (masked).
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { clientError, isClientGraphQLError } from '../../../src/graphql/server/errors.ts';

describe('isClientGraphQLError', () => {
  it.each([
    ['a syntax error', new GraphQLError('Syntax Error: Expected Name, found <EOF>.')],
    ['a validation error', new GraphQLError('Cannot query field "nope" on type "Project".')],
    ['a variable an input scalar refused', new GraphQLError('Variable "$d" got invalid value "soon"; invalid DateTime', { originalError: new TypeError('invalid DateTime') })],
    ['an argument refused during execution', new GraphQLError('Argument "first" of non-null type "Int!" must not be null.', { path: ['project', 'checks'] })],
    ['a request error yoga threw', new GraphQLError('POST body sent invalid JSON.', { extensions: { code: 'BAD_REQUEST' } })],
  ])('shows %s', (_name, error) => {
    expect(isClientGraphQLError(error)).toBe(true);
  });

  it.each([
    // graphql-js's own complaint about what a resolver returned is a server bug.
    ['an execution error at a path', new GraphQLError('Expected Iterable, but did not find one for field "Location.children".', { path: ['location', 'children'] })],
    ['a wrapped exception', new GraphQLError('SQLITE_CORRUPT', { originalError: new Error('SQLITE_CORRUPT') })],
    ['anything not a GraphQLError', new Error('boom')],
  ])('masks %s', (_name, error) => {
    expect(isClientGraphQLError(error)).toBe(false);
  });
});

describe('clientError', () => {
  it('gives every error a code: BAD_USER_INPUT for variables and arguments, BAD_REQUEST otherwise', () => {
    expect(clientError(new GraphQLError('Variable "$n" of required type "Int!" was not provided.')).extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(clientError(new GraphQLError('Argument "first" of non-null type "Int!" must not be null.')).extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(clientError(new GraphQLError('Must provide query string.')).extensions).toEqual({ code: 'BAD_REQUEST' });
    expect(clientError(new GraphQLError('x', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })).extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
  });

  it("drops the internals some producers attach, and keeps an unreadable body's 400 for every media type", () => {
    const invalidJson = new GraphQLError('POST body sent invalid JSON.', {
      extensions: { code: 'BAD_REQUEST', http: { spec: true, status: 400 }, originalError: { name: 'SyntaxError', message: 'Unexpected end of JSON input' }, stack: 'at JSON.parse' },
    });
    const shown = clientError(invalidJson);
    expect(shown.extensions).toEqual({ code: 'BAD_REQUEST', http: { spec: false, status: 400 } });
    expect(JSON.stringify(shown)).not.toMatch(/SyntaxError|JSON\.parse/);
  });

  it('keeps locations and path, and replaces the message of a code when asked', () => {
    const error = new GraphQLError('Request body too large', { extensions: { code: 'REQUEST_ENTITY_TOO_LARGE', http: { status: 413 } } });
    expect(clientError(error, { REQUEST_ENTITY_TOO_LARGE: 'at most 1 byte' })).toMatchObject({ message: 'at most 1 byte', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE', http: { status: 413 } } });
    const located = new GraphQLError('Argument "first" must not be null.', { path: ['a', 0, 'b'] });
    expect(clientError(located).path).toEqual(['a', 0, 'b']);
  });
});
