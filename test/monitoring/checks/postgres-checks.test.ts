// Check updates on PostgreSQL (the TEST_DB=postgres pass), where a ping may commit while an API
// update is under way: the update recomputes alertAfter from the check as the ping left it.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { postgresUnderTest } from '../../helpers/postgres.ts';

const url = postgresUnderTest();
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe.skipIf(!url)(`check updates on PostgreSQL${url ? '' : ' (skipped: TEST_DB=postgres not set)'}`, () => {
  const w = useWorld();

  it('an update waits for a ping holding the check, and computes alertAfter from what it wrote', async () => {
    const code = (await w.api('POST', '/api/v3/checks/', { body: { name: 'job', timeout: 3600, grace: 60 } })).json.uuid as string;
    w.clock.set(T0);
    await w.ping(`/ping/${code}`);
    const { id } = await w.app.db.check.findUniqueOrThrow({ where: { code } });
    const ping = new pg.Client({ connectionString: w.databaseUrl });
    await ping.connect();
    try {
      // A start ping's transaction, not yet committed: it runs, so it is due by start + grace.
      await ping.query('BEGIN');
      await ping.query(`UPDATE "Check" SET "lastStart" = $1, "alertAfter" = $2 WHERE "id" = $3`, [at(10).toISOString(), at(70).toISOString(), id]);
      const update = w.api('POST', `/api/v3/checks/${code}`, { body: { desc: 'nightly backup' } });
      await new Promise((r) => setTimeout(r, 200));
      await ping.query('COMMIT');
      expect((await update).status).toBe(200);
    } finally {
      await ping.end();
    }
    expect(await w.app.db.check.findUniqueOrThrow({ where: { id } })).toMatchObject({ desc: 'nightly backup', lastStart: at(10), alertAfter: at(70) });
  });
});
