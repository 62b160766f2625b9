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
  /** A connection that only reads (the driver's second one). */
  queryOnly?: boolean;
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
  if (options.queryOnly === true) database.pragma('query_only = ON');
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

/** Only these can be read-only statements; anything else runs on the writing connection. */
const mayRead = /^\s*(select|with)\b/i;

/** The savepoint each transaction of a batch runs in. */
const MEMBER = 'bazaar_member';

/** Queues the users of the writing connection in order. */
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

/** Transactions whose changes one COMMIT makes durable, and what they wait on. */
class Batch {
  /** Whether a transaction has run in it yet. */
  opened = false;
  readonly committed: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.committed = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A batch whose every transaction rolled back has nobody waiting on it.
    this.committed.catch(() => undefined);
  }
}

/** What one user of the driver holds: a query outside a transaction, or a whole transaction. */
class SqliteConnection implements DatabaseConnection {
  /** From the transaction's begin until its changes are in the batch or rolled back. */
  holdsLock = false;
  /** Whether the transaction joined a batch, in a savepoint, rather than opening it. */
  joined = false;

  constructor(
    private readonly execute: (
      connection: SqliteConnection,
      compiled: CompiledQuery,
    ) => Promise<QueryResult<unknown>>,
  ) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.execute(this, compiled) as Promise<QueryResult<R>>;
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The service never streams query results.');
  }
}

function holderOf(connection: DatabaseConnection): SqliteConnection {
  if (connection instanceof SqliteConnection) return connection;
  throw new Error('This connection belongs to another driver.');
}

function run(statement: BetterSqlite3.Statement, parameters: unknown[]): QueryResult<unknown> {
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * SQLite for a process that serves many requests at once. better-sqlite3 is synchronous, so
 * the process has one writing connection, whose users take turns through a mutex, and (for a
 * file) one reading connection that needs no turn. Beyond Kysely's own SQLite driver:
 *
 * - **Reads outside a transaction** go to the reading connection: in WAL mode it sees what was
 *   last committed, never a transaction still under way, so reads need not wait for writes.
 * - **Group commit.** With `synchronous=FULL` every COMMIT waits for the disk (an fsync, which
 *   blocks the event loop), and that wait was most of a deal's cost. Transactions that run
 *   while others are waiting therefore share one write transaction (the batch): the first opens
 *   it, each after it runs in a savepoint, and it is committed once no transaction that has
 *   already asked for the connection is still to run. Each caller's commit resolves only when the batch's COMMIT
 *   has returned, so nothing is answered before it is durable; a transaction that fails rolls
 *   back to its savepoint alone; a batch that fails to commit (a full disk) fails every
 *   transaction in it. Any other use of the writing connection commits the open batch first.
 * - Waiting for another process's lock never blocks the event loop. A statement that finds the
 *   file locked (SQLITE_BUSY) outside a transaction gives the connection back, sleeps and tries
 *   again with backoff until `busyTimeoutMs` has passed, then fails (answered 503).
 * - Write transactions begin IMMEDIATE: the write lock is taken up front (and waited for as
 *   above), so two processes that both read-then-write never fail at their first write, which
 *   a deferred transaction cannot retry from inside.
 */
export class BazaarSqliteDriver implements Driver {
  readonly #writer: CachedSqlite;
  readonly #reader: CachedSqlite | undefined;
  readonly #busyTimeoutMs: number;
  readonly #mutex = new Mutex();
  /** Connection handles not in use (Kysely keeps every handle it has seen, so they are reused). */
  readonly #idle: SqliteConnection[] = [];
  /** The open write transaction holding finished transactions' changes, until its COMMIT. */
  #batch: Batch | undefined;
  #commitScheduled = false;

  constructor(config: BazaarSqliteConfig) {
    this.#writer = config.database;
    this.#reader = config.reader;
    this.#busyTimeoutMs = config.busyTimeoutMs ?? 0;
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    const connection =
      this.#idle.pop() ??
      new SqliteConnection((holder, compiled) => this.#execute(holder, compiled));
    return Promise.resolve(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const holder = holderOf(connection);
    this.#giveBack(holder);
    this.#idle.push(holder);
    return Promise.resolve();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = holderOf(connection);
    await this.#mutex.lock();
    holder.holdsLock = true;
    holder.joined = false;
    await this.#whileBusy(() => {
      if (this.#batch !== undefined) return;
      this.#writer.prepare('begin immediate').run();
      this.#batch = new Batch();
    }, true);
    // The first transaction of a batch can roll back the whole of it; those after it need a
    // savepoint (which copies each page it changes aside, so a lone transaction goes without).
    if (this.#batch?.opened === false) {
      this.#batch.opened = true;
    } else {
      this.#writer.prepare(`savepoint ${MEMBER}`).run();
      holder.joined = true;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = holderOf(connection);
    if (holder.joined) this.#writer.prepare(`release ${MEMBER}`).run();
    const batch = this.#batch;
    this.#giveBack(holder);
    await batch?.committed;
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = holderOf(connection);
    // Not held: the batch's COMMIT failed, and rolled back every transaction in it already.
    if (!holder.holdsLock) return Promise.resolve();
    try {
      if (this.#writer.inTransaction && holder.joined) {
        this.#writer.prepare(`rollback to ${MEMBER}`).run();
        this.#writer.prepare(`release ${MEMBER}`).run();
      } else if (this.#writer.inTransaction) {
        // It opened the batch and nothing else joined it yet (they would still be waiting).
        this.#writer.prepare('rollback').run();
        this.#abandonBatch(undefined);
      }
    } catch (error) {
      // SQLite ends the whole transaction itself on some errors (SQLITE_FULL).
      if (this.#writer.inTransaction) throw error;
      this.#abandonBatch(error);
    } finally {
      this.#giveBack(holder);
    }
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.#mutex.lock();
    this.#commitBatch();
    this.#reader?.close();
    this.#writer.close();
  }

  async #execute(holder: SqliteConnection, compiled: CompiledQuery): Promise<QueryResult<unknown>> {
    const parameters = compiled.parameters as unknown[];
    if (holder.holdsLock) {
      try {
        return await this.#whileBusy(
          () => run(this.#writer.prepare(compiled.sql), parameters),
          false,
        );
      } catch (error) {
        if (!this.#writer.inTransaction) this.#abandonBatch(error);
        throw error;
      }
    }
    if (this.#reader !== undefined && mayRead.test(compiled.sql)) {
      const statement = this.#reader.prepare(compiled.sql);
      if (statement.readonly) return this.#whileBusy(() => run(statement, parameters), false);
    }
    await this.#mutex.lock();
    try {
      this.#commitBatch();
      return await this.#whileBusy(() => run(this.#writer.prepare(compiled.sql), parameters), true);
    } finally {
      this.#mutex.unlock();
    }
  }

  /** Ends a transaction's turn: the batch it leaves open is committed soon. */
  #giveBack(holder: SqliteConnection): void {
    if (!holder.holdsLock) return;
    holder.holdsLock = false;
    this.#mutex.unlock();
    this.#scheduleCommit();
  }

  /** Commits the batch once the transactions already queued for the connection have run. */
  #scheduleCommit(): void {
    if (this.#batch === undefined || this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      void this.#mutex.lock().then(() => {
        this.#commitScheduled = false;
        this.#commitBatch();
        this.#mutex.unlock();
      });
    });
  }

  /** Commits the open batch, if any; the caller holds the mutex. */
  #commitBatch(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    try {
      this.#writer.prepare('commit').run();
      batch.resolve();
    } catch (error) {
      try {
        if (this.#writer.inTransaction) this.#writer.prepare('rollback').run();
      } catch {
        // The COMMIT's failure is the one its transactions report.
      }
      batch.reject(error);
    }
  }

  /** SQLite ended the open transaction itself: every change of the batch is gone. */
  #abandonBatch(error: unknown): void {
    const batch = this.#batch;
    this.#batch = undefined;
    batch?.reject(error);
  }

  /**
   * Runs `run` (synchronous), retrying it while another process holds the lock. With
   * `yieldLock` the writing connection is handed back during each pause, so other queries of
   * this process go ahead; inside a transaction it stays held, since the transaction's
   * statements must stay together.
   */
  async #whileBusy<T>(run: () => T, yieldLock: boolean): Promise<T> {
    const deadline = Date.now() + this.#busyTimeoutMs;
    let delay = FIRST_RETRY_DELAY_MS;
    for (;;) {
      try {
        return run();
      } catch (error) {
        if (!isBusy(error) || Date.now() + delay > deadline) throw error;
      }
      if (yieldLock) this.#mutex.unlock();
      await sleep(delay);
      if (yieldLock) await this.#mutex.lock();
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    }
  }
}

export interface BazaarSqliteConfig {
  /** The writing connection. */
  database: CachedSqlite;
  /** A second connection to the same file for reads outside transactions (not for :memory:). */
  reader?: CachedSqlite;
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
