// Prisma's driver adapter for SQLite on better-sqlite3, ours. It is @prisma/adapter-better-sqlite3
// 7.10 (Apache-2.0) ported as it behaves, for one reason: that package declares better-sqlite3
// ^12, and better-sqlite3 12 aborts Node 24 (`(env) != nullptr` in a statement's finalizer, at
// exit or at a GC; closed upstream as not planned; 13 fixes it and needs Node 22+). Forcing 13 under it with an npm
// override would run it on a version its authors never declared. docs/decisions.md "Our own
// SQLite driver adapter". The connection is a declared field (`client`), which the gate's fast
// path (gated-adapter.ts) reads.
import Database from 'better-sqlite3';
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
  type TransactionOptions,
} from '@prisma/driver-adapter-utils';
import { getColumnTypes, mapArg, mapRow, type TimestampFormat } from './conversion.ts';
import { convertDriverError, isDriverError } from './errors.ts';

const ADAPTER_NAME = 'gateway-better-sqlite3';

export type SqliteAdapterOptions = { timestampFormat?: TimestampFormat };

/** A one-holder lock: transactions on one connection run one after another. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

class Queryable {
  readonly provider = 'sqlite' as const;
  readonly adapterName = ADAPTER_NAME;
  constructor(
    readonly client: Database.Database,
    protected readonly timestampFormat: TimestampFormat,
  ) {}

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const { columnNames, declaredTypes, values } = this.read(query);
    const columnTypes = getColumnTypes(declaredTypes, values);
    return { columnNames, columnTypes, rows: values.map((row) => mapRow(row, columnTypes)) } as SqlResultSet;
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    try {
      return this.prepare(query).run().changes;
    } catch (e) {
      throw toAdapterError(e);
    }
  }

  private prepare(query: SqlQuery) {
    const args = query.args.map((arg, i) => mapArg(arg, query.argTypes[i]!, this.timestampFormat));
    return this.client.prepare(query.sql).bind(args);
  }

  private read(query: SqlQuery): { columnNames: string[]; declaredTypes: Array<string | null>; values: unknown[][] } {
    try {
      const stmt = this.prepare(query);
      if (!stmt.reader) {
        stmt.run();
        return { columnNames: [], declaredTypes: [], values: [] };
      }
      const columns = stmt.columns();
      return {
        declaredTypes: columns.map((column) => column.type),
        columnNames: columns.map((column) => column.name),
        values: stmt.raw().all() as unknown[][],
      };
    } catch (e) {
      throw toAdapterError(e);
    }
  }
}

/** Errors SQLite raised, as Prisma's (unique violations and the like); anything else as it is. */
function toAdapterError(error: unknown): unknown {
  return isDriverError(error) ? new DriverAdapterError(convertDriverError(error)) : error;
}

class SqliteTransaction extends Queryable implements Transaction {
  // Prisma sends BEGIN's COMMIT and ROLLBACK as queries; these only hand the connection back.
  readonly options: TransactionOptions = { usePhantomQuery: false };
  constructor(
    client: Database.Database,
    timestampFormat: TimestampFormat,
    private readonly unlock: () => void,
  ) {
    super(client, timestampFormat);
  }
  async commit(): Promise<void> {
    this.unlock();
  }
  async rollback(): Promise<void> {
    this.unlock();
  }
  async createSavepoint(name: string): Promise<void> {
    await this.executeRaw({ sql: `SAVEPOINT ${name}`, args: [], argTypes: [] });
  }
  async rollbackToSavepoint(name: string): Promise<void> {
    await this.executeRaw({ sql: `ROLLBACK TO ${name}`, args: [], argTypes: [] });
  }
  async releaseSavepoint(name: string): Promise<void> {
    await this.executeRaw({ sql: `RELEASE SAVEPOINT ${name}`, args: [], argTypes: [] });
  }
}

export class SqliteDriverAdapter extends Queryable implements SqlDriverAdapter {
  readonly #mutex = new Mutex();

  async executeScript(script: string): Promise<void> {
    try {
      this.client.exec(script);
    } catch (e) {
      throw toAdapterError(e);
    }
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
      throw new DriverAdapterError({ kind: 'InvalidIsolationLevel', level: isolationLevel });
    }
    const release = await this.#mutex.acquire();
    try {
      this.client.prepare('BEGIN').run();
    } catch (e) {
      release();
      throw toAdapterError(e);
    }
    return new SqliteTransaction(this.client, this.timestampFormat, release);
  }

  async dispose(): Promise<void> {
    this.client.close();
  }
}

/** Opens `file` (a path or `:memory:`) when Prisma connects. */
export class SqliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'sqlite' as const;
  readonly adapterName = ADAPTER_NAME;
  constructor(
    private readonly file: string,
    private readonly options: SqliteAdapterOptions = {},
  ) {}

  async connect(): Promise<SqlDriverAdapter> {
    return this.open(this.file);
  }

  /** The scratch database the development schema diff (db/schema-diff.ts) replays migrations in. */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.open(':memory:');
  }

  private open(file: string): SqliteDriverAdapter {
    const db = new Database(file);
    // Integers as BigInt where they exceed 2^53; mapRow turns safe ones back into numbers.
    db.defaultSafeIntegers(true);
    return new SqliteDriverAdapter(db, this.options.timestampFormat ?? 'iso8601');
  }
}
