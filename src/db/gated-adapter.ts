// Wraps a driver adapter so that (1) a statement outside a transaction waits while a
// transaction is open, and (2) every statement sent to the database is reported.
//
// Why (1): the better-sqlite3 adapter runs everything on one connection and only serialises
// transactions with each other. A plain statement issued while another request's interactive
// transaction is open would run inside that transaction, and be rolled back with it, after its
// caller had been told it succeeded. Nothing acknowledged may be lost, so plain statements
// queue behind the open transaction instead.
// Why (2): "SQL statements executed" is a metric (/metrics) and a benchmark figure (GraphQL
// query planning), counted where the statements leave the process.
import type {
  ConnectionInfo,
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from '@prisma/driver-adapter-utils';

export type StatementListener = (sql: string) => void;

/** One holder at a time, first come first served. */
class Gate {
  #tail: Promise<void> = Promise.resolve();

  constructor(private serialize = true) {}

  async acquire(): Promise<() => void> {
    if (!this.serialize) return () => {};
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = next;
    await previous;
    return release;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.serialize) return work();
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

class GatedTransaction implements Transaction {
  readonly provider;
  readonly adapterName;
  readonly options;
  #released = false;

  constructor(
    private inner: Transaction,
    private release: () => void,
    private listeners: Set<StatementListener>,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    this.options = inner.options;
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    for (const l of this.listeners) l(query.sql);
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    for (const l of this.listeners) l(query.sql);
    return this.inner.executeRaw(query);
  }

  async commit(): Promise<void> {
    try {
      await this.inner.commit();
    } finally {
      this.#end();
    }
  }

  async rollback(): Promise<void> {
    try {
      await this.inner.rollback();
    } finally {
      this.#end();
    }
  }

  createSavepoint(name: string) {
    return this.inner.createSavepoint?.(name) ?? Promise.resolve();
  }

  rollbackToSavepoint(name: string) {
    return this.inner.rollbackToSavepoint?.(name) ?? Promise.resolve();
  }

  releaseSavepoint(name: string) {
    return this.inner.releaseSavepoint?.(name) ?? Promise.resolve();
  }

  #end() {
    if (this.#released) return;
    this.#released = true;
    this.release();
  }
}

class GatedAdapter implements SqlDriverAdapter {
  readonly provider;
  readonly adapterName;
  #gate: Gate;

  constructor(
    private inner: SqlDriverAdapter,
    private listeners: Set<StatementListener>,
    private maxBindValues: number | undefined,
    serialize: boolean,
    private openConnection?: () => unknown,
  ) {
    this.#gate = new Gate(serialize);
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  getConnectionInfo(): ConnectionInfo {
    const info = this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
    return this.maxBindValues === undefined ? info : { ...info, maxBindValues: this.maxBindValues };
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.#gate.run(() => {
      for (const l of this.listeners) l(query.sql);
      return this.inner.queryRaw(query);
    });
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.#gate.run(() => {
      for (const l of this.listeners) l(query.sql);
      return this.inner.executeRaw(query);
    });
  }

  /**
   * Runs `work` with the driver's own connection object while holding the gate: no Prisma
   * statement or transaction interleaves. For hot paths Prisma's per-row cost is too high for.
   */
  exclusive<T>(work: (connection: unknown, observe: StatementListener) => T): Promise<T> {
    let connection: unknown;
    try {
      connection = this.connection();
    } catch (err) {
      return Promise.reject(err);
    }
    const observe = (sql: string) => {
      for (const l of this.listeners) l(sql);
    };
    return this.#gate.run(async () => work(connection, observe));
  }

  #own: unknown;

  /**
   * The fast path: the adapter's own better-sqlite3 connection, its declared `client` field
   * (sqlite/driver-adapter); test/db/gated-adapter.test.ts asserts this path is taken. An adapter
   * without one gets a connection of our own on the same file (through the gate, so no statement
   * of ours and Prisma's overlap; SQLite's locks keep the two connections consistent).
   */
  connection(): unknown {
    const client = (this.inner as unknown as { client?: unknown }).client;
    if (client) return client;
    if (!this.openConnection) throw new Error(`the ${this.inner.adapterName} adapter exposes no connection`);
    return (this.#own ??= this.openConnection());
  }

  executeScript(script: string): Promise<void> {
    return this.#gate.run(() => this.inner.executeScript(script));
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const release = await this.#gate.acquire();
    try {
      const tx = await this.inner.startTransaction(isolationLevel);
      for (const l of this.listeners) l('BEGIN');
      return new GatedTransaction(tx, release, this.listeners);
    } catch (e) {
      release();
      throw e;
    }
  }

  dispose(): Promise<void> {
    (this.#own as { close?: () => void } | undefined)?.close?.();
    return this.inner.dispose();
  }
}

export interface GatedAdapterFactory extends SqlDriverAdapterFactory {
  /** Calls `listener` with the SQL of every statement; returns a function that stops it. */
  onStatement(listener: StatementListener): () => void;
  /** GatedAdapter.exclusive on the connected adapter (the client must have connected). */
  exclusive<T>(work: (connection: unknown, observe: StatementListener) => T): Promise<T>;
  /** Reports a statement sent outside Prisma to the listeners. */
  observe(sql: string): void;
}

export interface GateOptions {
  /** Bind parameters one statement may carry, when the adapter does not say (Prisma then splits
   * bulk writes into statements of at most this many). */
  maxBindValues?: number;
  /** Queue plain statements behind open transactions (SQLite's single connection; see above).
   * False on PostgreSQL, where each transaction has a connection of its own. Default true. */
  serialize?: boolean;
  /** Opens a driver connection of our own when the adapter does not expose its own (exclusive()). */
  openConnection?: () => unknown;
}

export function gateAdapterFactory(inner: SqlDriverAdapterFactory, options: GateOptions = {}): GatedAdapterFactory {
  const listeners = new Set<StatementListener>();
  let connected: GatedAdapter | undefined;
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      connected = new GatedAdapter(await inner.connect(), listeners, options.maxBindValues, options.serialize ?? true, options.openConnection);
      return connected;
    },
    exclusive(work) {
      if (!connected) return Promise.reject(new Error('the database client has not connected yet'));
      return connected.exclusive(work);
    },
    observe(sql) {
      for (const l of listeners) l(sql);
    },
    onStatement(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
