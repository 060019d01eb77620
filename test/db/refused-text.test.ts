// The net under the NUL rule (src/db/refused-text.ts): PostgreSQL's own refusal of text it cannot
// store, as Prisma and node-postgres deliver it, is the client's fault in every transport (400,
// BAD_USER_INPUT), never a 500; nothing else is taken for it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { isTextTheDatabaseRefused, REFUSED_TEXT_MESSAGE } from '../../src/db/refused-text.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { toGraphQLError } from '../../src/graphql/server/errors.ts';
import { sendApiError } from '../../rest-compat/healthchecks/errors.ts';
import { sendCampusError } from '../../rest-compat/campus/routes.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { postgresUnderTest, testPool } from '../helpers/postgres.ts';

const pg_ = postgresUnderTest();
const log = pino({ level: 'silent' });

/** What `send` answers when it writes `err` to a real response. */
async function answered(send: (res: http.ServerResponse) => void): Promise<{ status: number; body: unknown }> {
  const server = http.createServer((_req, res) => send(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, body: await res.json() };
  } finally {
    server.close();
  }
}

describe.skipIf(!pg_)(`text PostgreSQL refuses${pg_ ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  const w = useWorld();
  const pools: pg.Pool[] = [];
  afterAll(() => Promise.all(pools.map((p) => p.end())));

  it('is the client’s fault whether Prisma or node-postgres reports it, in GraphQL and both REST APIs', async () => {
    const viaPrisma = await w.app.db.check.findFirst({ where: { uniqueKey: 'a\u0000b' } }).then(
      () => null,
      (err: unknown) => err,
    );
    const pool = testPool({ connectionString: w.databaseUrl, max: 1 });
    pools.push(pool);
    const viaPg = await pool.query('SELECT $1::text', ['a\u0000']).then(
      () => null,
      (err: unknown) => err,
    );
    for (const err of [viaPrisma, viaPg]) {
      expect(err).not.toBeNull();
      expect(isTextTheDatabaseRefused(err)).toBe(true);
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
    const graphql = toGraphQLError(viaPrisma);
    expect(graphql?.message).toBe(REFUSED_TEXT_MESSAGE);
    expect(graphql?.extensions.code).toBe('BAD_USER_INPUT');
    expect(await answered((res) => sendApiError(res, viaPrisma, {}, log))).toEqual({ status: 400, body: { error: REFUSED_TEXT_MESSAGE } });
    expect(await answered((res) => sendCampusError(res, viaPrisma, log))).toEqual({ status: 400, body: { success: false, message: REFUSED_TEXT_MESSAGE } });
  });

  it('is not taken for another database error', async () => {
    const pool = testPool({ connectionString: w.databaseUrl, max: 1 });
    pools.push(pool);
    const other = await pool.query('SELECT 1/0').then(
      () => null,
      (err: unknown) => err,
    );
    expect((other as { code?: string }).code).toBe('22012');
    expect(isTextTheDatabaseRefused(other)).toBe(false);
    expect(toGraphQLError(other)).toBeNull();
    expect((await answered((res) => sendApiError(res, other, {}, log))).status).toBe(500);
  });
});
