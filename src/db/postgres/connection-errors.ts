// node-postgres emits 'error' on a client whose connection dies (PostgreSQL restarted, a proxy
// cut it) even when a query is waiting for it, and an 'error' event nobody listens to ends the
// process. The pool listens only while a client is idle; a client checked out between two
// statements of a transaction, or one of our own short-lived clients, had no listener, and a
// database restart under load killed the server about one time in four. The failure still
// reaches whoever waits on the connection: the pending query rejects, the next one fails to
// connect, and the caller answers (503, a retry) as for any database error.
import type pg from 'pg';

/** Listens for a client's connection errors for its whole life; they surface through its queries. */
export function keepConnectionErrorsFromCrashing<C extends pg.Client | pg.PoolClient>(client: C): C {
  client.on('error', () => {});
  return client;
}

/** The same for every client a pool ever opens, checked out or idle. */
export function guardPool(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  pool.on('connect', (client) => keepConnectionErrorsFromCrashing(client));
  return pool;
}
