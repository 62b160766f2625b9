import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
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
 * Opens the SQLite file the way the service needs it: WAL so readers never wait for the writer,
 * synchronous=FULL so an acknowledged write survives a power cut, and a busy timeout so that
 * several processes on one file queue for the write lock instead of failing.
 */
export function openSqlite(options: SqliteOptions): BetterSqlite3.Database {
  const database = new BetterSqlite(options.path);
  database.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${options.synchronous}`);
  database.pragma('foreign_keys = ON');
  return database;
}

/**
 * Kysely's stock driver prepares every statement anew, which halves throughput on simple reads.
 * better-sqlite3 statements are reusable, so keep the recent ones by their SQL text.
 */
export function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sql: string): SqliteStatement => {
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

/**
 * Write transactions begin IMMEDIATE: the write lock is taken up front, so two processes that
 * both read-then-write queue on busy_timeout instead of one failing with SQLITE_BUSY at its
 * first write (which a deferred transaction cannot retry from inside).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite runs DDL inside transactions; saying so makes Kysely's migrator hold the write lock. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class BazaarSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
