// A PostgreSQL connection cut while a client is checked out (between two statements of a
// transaction) does not end the process: the pool's clients listen for their connection's
// errors for their whole life. The database is reached through a TCP proxy the test controls,
// which cuts every connection at once as a server restart does. Needs TEST_DATABASE_URL.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type CreatedDb } from '../../src/db/client.ts';
import { testPostgresUrl } from '../helpers/postgres.ts';

const admin = testPostgresUrl();

describe.skipIf(!admin)('PostgreSQL connections cut under a checked-out client', () => {
  const sockets = new Set<net.Socket>();
  let proxy: net.Server;
  let opened: CreatedDb;
  beforeAll(async () => {
    const target = new URL(admin!);
    proxy = net.createServer((client) => {
      const server = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    const viaProxy = new URL(admin!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String((proxy.address() as net.AddressInfo).port);
    opened = openDb(viaProxy.toString(), { poolSize: 2 });
  });
  afterAll(async () => {
    await opened?.db.$disconnect();
    await opened?.pool?.end().catch(() => {});
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  });

  it('survives the cut (no unhandled error), fails the waiting work, and serves again on new connections', async () => {
    const pool = opened.pool!;
    const client = await pool.connect();
    await client.query('BEGIN');
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    for (const s of sockets) s.destroy();
    await ended;
    // Without a listener the 'error' event above would have ended the test process.
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);

    const rows = await opened.db.$queryRawUnsafe<Array<{ one: number }>>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});
