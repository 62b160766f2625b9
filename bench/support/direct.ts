import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BetterSqlite as BetterSqlite3 } from '../../src/db/better-sqlite3.js';
import pg from 'pg';

export type BenchDialect = 'sqlite' | 'postgres';

/**
 * Plain driver access to a benchmark database, for loading fixtures fast (outside the service,
 * which is what is being measured). SQL uses `?` placeholders on both dialects.
 */
export interface Direct {
  dialect: BenchDialect;
  run(sql: string, params?: unknown[]): Promise<void>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  insert(table: string, rows: Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
}

export interface BenchDatabase {
  dialect: BenchDialect;
  /** DATABASE_URL for the service and the raw baseline. */
  url: string;
  open(): Direct;
  drop(): Promise<void>;
}

/** The PostgreSQL server to benchmark on, if any: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
export const postgresServerUrl = (): string | undefined =>
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? undefined;

/** SQLite, and PostgreSQL when a server is named; `BENCH_DIALECTS=postgres` (or `sqlite`) keeps one. */
export const benchDialects = (): BenchDialect[] => {
  const all: BenchDialect[] =
    postgresServerUrl() === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
  const chosen = process.env.BENCH_DIALECTS?.split(',').map((name) => name.trim());
  return chosen === undefined ? all : all.filter((dialect) => chosen.includes(dialect));
};

export async function createBenchDatabase(dialect: BenchDialect): Promise<BenchDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bazaar-bench-'));
    const path = join(dir, 'bazaar.db');
    return {
      dialect,
      url: `sqlite:${path}`,
      open: () => openSqliteDirect(path),
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const server = postgresServerUrl();
  if (server === undefined) throw new Error('no PostgreSQL server: set BENCH_DATABASE_URL');
  const name = `bazaar_bench_${randomBytes(5).toString('hex')}`;
  await admin(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    dialect,
    url: url.toString(),
    open: () => openPostgresDirect(url.toString()),
    drop: () => admin(server, `drop database if exists ${name} with (force)`),
  };
}

async function admin(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function openSqliteDirect(path: string): Direct {
  const db = new BetterSqlite3(path);
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  return {
    dialect: 'sqlite',
    run: (sql, params = []) => {
      db.prepare(sql).run(...params);
      return Promise.resolve();
    },
    all: <T>(sql: string, params: unknown[] = []) =>
      Promise.resolve(db.prepare(sql).all(...params) as T[]),
    insert: (table, rows) => {
      const first = rows[0];
      if (first === undefined) return Promise.resolve();
      const columns = Object.keys(first);
      const statement = db.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const row of rows) statement.run(...columns.map((column) => row[column]));
      })();
      return Promise.resolve();
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

function openPostgresDirect(url: string): Direct {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // Dropping the database at the end may reach a connection the pool is still closing.
  pool.on('error', () => undefined);
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    dialect: 'postgres',
    run: async (sql, params = []) => {
      await pool.query(numbered(sql), params);
    },
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(numbered(sql), params)).rows as T[],
    insert: async (table, rows) => {
      const first = rows[0];
      if (first === undefined) return;
      const columns = Object.keys(first);
      const batch = Math.floor(30_000 / columns.length);
      for (let start = 0; start < rows.length; start += batch) {
        const slice = rows.slice(start, start + batch);
        const params: unknown[] = [];
        const tuples = slice.map((row) => {
          const marks = columns.map((column) => {
            params.push(row[column]);
            return `$${params.length}`;
          });
          return `(${marks.join(', ')})`;
        });
        await pool.query(
          `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
          params,
        );
      }
    },
    close: () => pool.end(),
  };
}
