import { setTimeout as sleep } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { BetterSqlite } from './better-sqlite3.js';

export interface SqliteOptions {
  path: string;
  busyTimeoutMs: number;
  synchronous: 'FULL' | 'NORMAL';
}

/** Statements kept prepared per connection; the service issues far fewer distinct ones. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * How long SQLite itself may wait for a lock. Its busy handler sleeps on the event loop, so it is
 * kept to a few milliseconds; longer waits happen in `BazaarSqliteDriver`, asynchronously.
 */
const BLOCKING_BUSY_TIMEOUT_MS = 5;
/** Pauses between attempts to take a lock another process holds: short first, then capped. */
const FIRST_RETRY_DELAY_MS = 2;
const MAX_RETRY_DELAY_MS = 50;

/**
 * Opens the SQLite file the way the service needs it: WAL so readers never wait for the writer,
 * synchronous=FULL so an acknowledged write survives a power cut, and a short busy timeout (the
 * driver retries past it without blocking the event loop).
 */
export function openSqlite(options: SqliteOptions): BetterSqlite3.Database {
  const database = new BetterSqlite(options.path);
  database.pragma(`busy_timeout = ${Math.min(options.busyTimeoutMs, BLOCKING_BUSY_TIMEOUT_MS)}`);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${options.synchronous}`);
  database.pragma('foreign_keys = ON');
  return database;
}

/** A better-sqlite3 database whose statements are prepared once and reused. */
export interface CachedSqlite {
  prepare(sql: string): BetterSqlite3.Statement;
  readonly inTransaction: boolean;
  close(): void;
}

/**
 * Kysely's stock driver prepares every statement anew, which halves throughput on simple reads.
 * better-sqlite3 statements are reusable, so keep the recent ones by their SQL text.
 */
export function withStatementCache(database: BetterSqlite3.Database): CachedSqlite {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    get inTransaction() {
      return database.inTransaction;
    },
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = cache.get(sql);
      if (statement !== undefined) {
        // Re-inserting keeps the map in least-recently-used order for eviction.
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

const isBusy = (error: unknown): boolean =>
  /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code));

/** SQLite has one connection per process here; this queues its users in order. */
class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#held !== undefined) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}

class SqliteConnection implements DatabaseConnection {
  constructor(
    private readonly database: CachedSqlite,
    private readonly whileBusy: <T>(run: () => T) => Promise<T>,
  ) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.whileBusy(() => {
      const statement = this.database.prepare(compiled.sql);
      const parameters = compiled.parameters as unknown[];
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    });
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The service never streams query results.');
  }
}

/**
 * One connection shared through a mutex, like Kysely's own SQLite driver, with two differences:
 *
 * - Waiting for another process's lock never blocks the event loop. A statement that finds the
 *   file locked (SQLITE_BUSY) outside a transaction gives the connection back, sleeps and tries
 *   again with backoff until `busyTimeoutMs` has passed, then fails (answered 503). Meanwhile
 *   this process keeps serving health checks and reads.
 * - Write transactions begin IMMEDIATE: the write lock is taken up front (and waited for as
 *   above), so two processes that both read-then-write never fail at their first write, which
 *   a deferred transaction cannot retry from inside.
 *
 * A rollback after a failure never replaces that failure: SQLite ends the transaction itself on
 * some errors (SQLITE_FULL), and a ROLLBACK then would fail with "no transaction is active".
 */
export class BazaarSqliteDriver implements Driver {
  readonly #database: CachedSqlite;
  readonly #busyTimeoutMs: number;
  readonly #mutex = new Mutex();
  readonly #connection: SqliteConnection;

  constructor(config: BazaarSqliteConfig) {
    this.#database = config.database;
    this.#busyTimeoutMs = config.busyTimeoutMs ?? 0;
    this.#connection = new SqliteConnection(this.#database, (run) => this.#whileBusy(run));
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  releaseConnection(): Promise<void> {
    this.#mutex.unlock();
    return Promise.resolve();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#database.inTransaction) return;
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch {
      // The error that led here is the one worth reporting; SQLite ends the transaction anyway.
    }
  }

  destroy(): Promise<void> {
    this.#database.close();
    return Promise.resolve();
  }

  /**
   * Runs `run` (synchronous, on the one connection the caller holds), retrying it while another
   * process holds the lock. Outside a transaction the connection is handed back during each
   * pause, so other queries of this process go ahead; inside one it stays held, since the
   * transaction's statements must stay together.
   */
  async #whileBusy<T>(run: () => T): Promise<T> {
    const deadline = Date.now() + this.#busyTimeoutMs;
    let delay = FIRST_RETRY_DELAY_MS;
    for (;;) {
      try {
        return run();
      } catch (error) {
        if (!isBusy(error) || Date.now() + delay > deadline) throw error;
      }
      const yieldConnection = !this.#database.inTransaction;
      if (yieldConnection) this.#mutex.unlock();
      await sleep(delay);
      if (yieldConnection) await this.#mutex.lock();
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    }
  }
}

export interface BazaarSqliteConfig {
  database: CachedSqlite;
  /** How long a statement keeps retrying while another process holds the file; 0 = not at all. */
  busyTimeoutMs?: number;
}

/** SQLite as the service uses it: the driver above, and DDL inside transactions. */
export class BazaarSqliteDialect implements Dialect {
  constructor(private readonly config: BazaarSqliteConfig) {}

  createDriver(): Driver {
    return new BazaarSqliteDriver(this.config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** SQLite runs DDL inside transactions; saying so makes Kysely's migrator hold the write lock. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
