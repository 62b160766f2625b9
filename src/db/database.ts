import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Config, DatabaseTarget } from '../config.js';
import { endsConnection } from './errors.js';
import { runNamed, runNamedOnPool } from './pg-named-query.js';
import { runDirectly, statementName, type DirectRunner } from './prepared.js';
import type { Database } from './schema.js';
import { openSqlite, withStatementCache, type CachedSqlite } from './sqlite-connection.js';
import { BazaarSqliteDialect } from './sqlite-dialect.js';
import { directReads } from './sqlite.js';

export type Dialect = DatabaseTarget['dialect'];

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /**
   * SQLite only: the process's writing connection, to run a prepared statement for each of many rows
   * without the query builder's cost per statement (a catalog sync writes hundreds of thousands).
   * Only inside a transaction, which already holds that connection.
   */
  readonly sqlite?: CachedSqlite;
  /** Answers whether the database responds right now (for /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Fills a migrated database with what ships in the repository. Each seeder must be idempotent
 * (restarts never duplicate data) and safe when several processes start at once.
 */
export type Seeder = (store: Store, config: Config) => Promise<void>;

// int8 (counts, sums) arrives from pg as a string; every such value here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// Timestamps travel as ISO 8601 strings on both dialects.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => new Date(value).toISOString());

/**
 * How long a request waits for a PostgreSQL connection (a free one of the pool, or a new one
 * being opened) before it is answered 503: a server that is down, hung or out of connections
 * fails requests instead of holding them forever.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long /readyz waits for the database's answer before saying it is not ready. */
export const PING_TIMEOUT_MS = 2_000;

export function openStore(
  config: Pick<Config, 'database' | 'sqliteBusyTimeoutMs' | 'sqliteSynchronous'> &
    Partial<Pick<Config, 'databasePoolSize' | 'databaseStatementTimeoutMs'>>,
): Store {
  const target = config.database;
  if (target.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: config.databasePoolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      Client: clientWithStatementTimeout(config.databaseStatementTimeoutMs ?? 0),
    });
    // A connection lost to a server restart or an administrator must not crash the process:
    // the query in flight fails (and is answered 503), the pool replaces the connection.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: namedStatements(pool) }),
    });
    runDirectly(db, directPostgresReads(pool));
    return storeOf(db, 'postgres');
  }
  if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
  const options = {
    path: target.path,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    synchronous: config.sqliteSynchronous,
  };
  const sqlite = withStatementCache(openSqlite(options));
  // A second connection to :memory: would be another, empty database.
  const reader =
    target.path === ':memory:'
      ? undefined
      : withStatementCache(openSqlite({ ...options, queryOnly: true }));
  const db = new Kysely<Database>({
    dialect: new BazaarSqliteDialect({
      database: sqlite,
      reader,
      busyTimeoutMs: config.sqliteBusyTimeoutMs,
    }),
  });
  if (reader !== undefined) runDirectly(db, directReads(reader));
  return { ...storeOf(db, 'sqlite'), sqlite };
}

/**
 * The pool as Kysely sees it, except that the queries compiled once (db/prepared.ts) are sent
 * as named statements: each connection has the server parse and plan them once. Each of the
 * pool's connections keeps one wrapper, so that Kysely, which keeps its own object for each
 * connection it is given, finds it again instead of making one for every query.
 */
function namedStatements(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    // A failure that ended the connection (a server that terminated it says so before the
    // socket closes): released with it, the pool closes the connection instead of handing it to
    // the next query. Other failures (a statement past its time limit, a deadlock) keep it.
    let failure: Error | undefined;
    const noteFailure = (error: unknown) => {
      if (endsConnection(error)) failure = error as Error;
      throw error;
    };
    return {
      // Only Kysely's streaming uses the cursor form of query(), and the service never streams.
      query: ((text: string, values: readonly unknown[]) => {
        const name = statementName(text);
        // pg copies a query given as an object; one without a name goes as text and values.
        const result =
          name === undefined
            ? client.query(text, [...values])
            : runNamed(client, name, text, [...values]);
        return result.catch(noteFailure);
      }) as unknown as PostgresPoolClient['query'],
      release: () => {
        const error = failure;
        failure = undefined;
        client.release(error);
      },
    };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/**
 * Reads compiled once, outside a transaction, sent on the pool at once as named statements
 * (see `runDirectly`), as Kysely would send them through `namedStatements`. Only plain
 * `select`s: a `with` may hide a write.
 */
function directPostgresReads(pool: pg.Pool): DirectRunner {
  // By SQL: its statement name if it is such a read, else null.
  const reads = new Map<string, string | null>();
  return (query) => {
    let name = reads.get(query.sql);
    if (name === undefined) {
      name = /^\s*select\b/i.test(query.sql) ? (statementName(query.sql) ?? null) : null;
      reads.set(query.sql, name);
    }
    if (name === null) return undefined;
    return runNamedOnPool(pool, name, query.sql, [...query.parameters]).then(({ rows }) => ({
      rows,
    }));
  };
}

/**
 * A PostgreSQL client whose statements the server cancels after `ms` (answered 503): one held up
 * by a lock, or by a server too busy to answer it, frees its connection. Set as each connection
 * opens, before the pool hands it out (poolers such as PgBouncer refuse it as a start-up
 * parameter), 0 included, so that a default of the database or role does not apply instead.
 */
function clientWithStatementTimeout(ms: number): typeof pg.Client {
  return class extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
    override connect(
      callback?: (error: Error | null, client?: pg.Client) => void,
    ): Promise<pg.Client> | undefined {
      const ready = super
        .connect()
        .then(() => this.query(`set statement_timeout = ${String(ms)}`))
        .then(() => this);
      if (callback === undefined) return ready;
      ready.then(
        (client) => {
          callback(null, client);
        },
        (error: unknown) => {
          callback(error as Error);
        },
      );
      return undefined;
    }
  };
}

function storeOf(db: Kysely<Database>, dialect: Dialect): Store {
  let closed = false;
  return {
    db,
    dialect,
    ping: async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => {
            reject(new Error('no answer in time'));
          }, PING_TIMEOUT_MS);
        });
        await Promise.race([sql`select 1`.execute(db), late]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
