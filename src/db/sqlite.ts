import { setTimeout as sleep } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { Batch, Mutex } from './sqlite-batch.js';
import type { DirectRunner } from './prepared.js';
import type { CachedSqlite } from './sqlite-connection.js';

/** Pauses between attempts to take a lock another process holds: short first, then capped. */
const FIRST_RETRY_DELAY_MS = 2;
const MAX_RETRY_DELAY_MS = 50;

const isBusy = (error: unknown): boolean =>
  /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code));

/** Only these can be read-only statements; anything else runs on the writing connection. */
const mayRead = /^\s*(select|with)\b/i;

/** The savepoint each transaction of a batch runs in. */
const MEMBER = 'bazaar_member';

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

/** The reading connection's statement for `sql`, if it is a read that connection can run. */
function readOnly(reader: CachedSqlite, sql: string): BetterSqlite3.Statement | undefined {
  if (!mayRead.test(sql)) return undefined;
  const statement = reader.prepare(sql);
  return statement.readonly ? statement : undefined;
}

/**
 * Reads outside a transaction run at once on the reading connection, as `#execute` would run
 * them, without a trip through the driver (see `runDirectly`); anything else, and a read that
 * finds the file locked (to be retried with backoff), is left to the driver.
 */
export function directReads(reader: CachedSqlite): DirectRunner {
  // By SQL (only the queries compiled once come here, a fixed set): its statement, or null.
  const reads = new Map<string, BetterSqlite3.Statement | null>();
  return (query) => {
    let statement = reads.get(query.sql);
    if (statement === undefined) {
      statement = readOnly(reader, query.sql) ?? null;
      reads.set(query.sql, statement);
    }
    if (statement === null) return undefined;
    try {
      return Promise.resolve({ rows: statement.all(query.parameters as unknown[]) });
    } catch (error) {
      if (isBusy(error)) return undefined;
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
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
    const statement = this.#reader && readOnly(this.#reader, compiled.sql);
    if (statement !== undefined) return this.#whileBusy(() => run(statement, parameters), false);
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
