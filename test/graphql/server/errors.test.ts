// Error mapping: domain errors keep their message and get a stable extensions.code; anything
// else is masked ("Unexpected error.") and logged on the server.
import { Writable } from 'node:stream';
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGraphQLError } from '../../../src/graphql/server/errors.ts';
import { conflict, DomainError, forbidden, notFound, OtherProjectError, unauthenticated, validationError } from '../../../src/shared/errors.ts';
import { createWorld, type World } from '../../helpers/world.ts';
import { inProcess, servicesOn } from '../in-process.ts';

describe('toGraphQLError', () => {
  it.each([
    [validationError('json validation error: timeout is too small'), 'BAD_USER_INPUT', 'json validation error: timeout is too small'],
    [unauthenticated('missing api key'), 'UNAUTHENTICATED', 'missing api key'],
    [forbidden('forbidden'), 'FORBIDDEN', 'forbidden'],
    [notFound(), 'NOT_FOUND', 'not found'],
    [conflict('check is not paused'), 'CONFLICT', 'check is not paused'],
    // Another project's check looks exactly like a missing one.
    [new OtherProjectError(), 'NOT_FOUND', 'not found'],
  ] as const)('%s → %s', (error, code, message) => {
    const mapped = toGraphQLError(error);
    expect(mapped).toBeInstanceOf(GraphQLError);
    expect(mapped).toMatchObject({ message, extensions: { code } });
  });

  it('unwraps the GraphQLError graphql-js puts around a resolver error, keeping its path', () => {
    const wrapped = new GraphQLError('conflict', { path: ['pauseCheck'], originalError: conflict('check changed concurrently, try again') });
    expect(toGraphQLError(wrapped)).toMatchObject({ message: 'check changed concurrently, try again', path: ['pauseCheck'], extensions: { code: 'CONFLICT' } });
  });

  it('leaves everything else to masking', () => {
    expect(toGraphQLError(new Error('boom'))).toBeNull();
    expect(toGraphQLError(new GraphQLError('x', { originalError: new TypeError('internal') }))).toBeNull();
    expect(toGraphQLError('a string')).toBeNull();
    expect(new DomainError('NOT_FOUND', 'x')).toBeInstanceOf(Error);
  });
});

describe('masking', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld();
  });
  afterAll(() => w.stop());

  it('hides unexpected errors from the client and logs them', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'error' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    // The checks table "fails" with internals in the message, as a broken database would.
    const check = new Proxy(w.app.db.check, {
      get: (target, prop) => (prop === 'findMany' ? () => Promise.reject(new Error('SQLITE_CORRUPT at /var/secret/gateway.db')) : Reflect.get(target, prop)),
    });
    const db = new Proxy(w.app.db, { get: (target, prop) => (prop === 'check' ? check : Reflect.get(target, prop)) });
    const q = inProcess(servicesOn(w.app, db), log, w.alice.api_key);
    const r = await q('{ project { name checks { totalCount } } }');
    // Which field failed stays visible; why does not.
    expect(r.errors).toEqual([{ message: 'Unexpected error.', path: ['project', 'checks'], locations: [{ line: 1, column: 18 }], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    expect(r.data).toBeNull();
    expect(JSON.stringify(r)).not.toMatch(/SQLITE|secret/);
    expect(lines.join('')).toContain('SQLITE_CORRUPT');
  });

  it('passes GraphQL\'s own validation errors through', async () => {
    const q = inProcess(w.app.services, w.app.log, w.alice.api_key);
    const r = await q('{ project { nope } }');
    expect(r.errors![0]!.message).toMatch(/Cannot query field "nope"/);
  });
});
