import type BetterSqlite3 from 'better-sqlite3';
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

/**
 * Opens the SQLite file the way the service needs it: WAL so readers never wait for the writer,
 * synchronous=FULL so an acknowledged write survives a power cut, and a short busy timeout (the
 * driver retries past it without blocking the event loop).
 */
export function openSqlite(options: SqliteOptions): BetterSqlite3.Database {
  const database = new BetterSqlite(options.path);
  // Turning a new file to WAL takes it whole for a moment: a process started at the same time
  // may hold it (switching it too, or migrating). This runs once, at start, before serving, so
  // it may wait here the whole configured time; the short wait applies from then on.
  database.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${Math.min(options.busyTimeoutMs, BLOCKING_BUSY_TIMEOUT_MS)}`);
  database.pragma(`synchronous = ${options.synchronous}`);
  database.pragma('foreign_keys = ON');
  if (options.queryOnly === true) {
    database.pragma('query_only = ON');
  } else {
    // A transaction that joins a group commit runs in a savepoint (see BazaarSqliteDriver), and
    // SQLite moves a savepoint's journal to a temporary file past 64 KiB: under load nearly every
    // batch created, wrote and deleted one (a third of a deal's write calls). The writing
    // connection keeps it in memory (at most the pages one batch changes); it makes no
    // temporary tables.
    database.pragma('temp_store = MEMORY');
  }
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
