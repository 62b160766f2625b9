import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { DatabaseTarget } from '../../src/config.js';
import { BetterSqlite } from '../../src/db/better-sqlite3.js';
import { openStore, type Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export type DialectName = DatabaseTarget['dialect'];

/**
 * The dialects every integration test runs on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL names a server (CI sets it and `.ci/run` fails if the server is missing).
 */
export const testDialects: DialectName[] =
  process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === ''
    ? ['sqlite']
    : ['sqlite', 'postgres'];

export interface TestDatabase {
  target: DatabaseTarget;
  /** The same database as a DATABASE_URL value, for child processes. */
  url: string;
  drop(): Promise<void>;
}

/**
 * Where the run's template databases are (see templates.ts): per dialect, a SQLite file or a
 * PostgreSQL database name. Absent when the run has none; copies are then built from scratch.
 */
export type TemplateDatabases = Partial<Record<DialectName, string>>;

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabases: TemplateDatabases;
  }
}

/** A brand-new empty database of the given dialect, dropped again by `drop()`. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  return newTestDatabase(dialect);
}

/**
 * A new database holding what a first start leaves behind (every migration, the shipped seed
 * data): a copy of this run's template, which a first start built once before the tests. Without
 * a template it is empty, and the caller's `prepareStore` does the first start itself.
 */
export async function createSeededTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const templates = inject('templateDatabases') as TemplateDatabases | undefined;
  return newTestDatabase(dialect, templates?.[dialect]);
}

async function newTestDatabase(dialect: DialectName, template?: string): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bazaar-test-'));
    const path = join(dir, 'bazaar.db');
    if (template !== undefined) copyFileSync(template, path);
    return {
      target: { dialect, path },
      url: `sqlite:${path}`,
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `bazaar_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(
    serverUrl,
    `create database ${name}${template === undefined ? '' : ` template ${template}`}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    target: { dialect, url: url.toString() },
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * Turns a closed SQLite database into a single file that can be copied as it is: everything in
 * its write-ahead log is moved into the file and the log emptied.
 */
export function checkpointSqlite(path: string): void {
  const file = new BetterSqlite(path);
  try {
    file.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    file.close();
  }
  const log = `${path}-wal`;
  if (existsSync(log) && statSync(log).size > 0) throw new Error(`${log} was not emptied`);
}

export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A store on a test database, for tests of the database layer itself (no app around it). */
export const openTestStore = (database: TestDatabase): Store =>
  openStore({ database: database.target, sqliteBusyTimeoutMs: 1000, sqliteSynchronous: 'NORMAL' });

/**
 * A store on a fresh database for the enclosing `describe`, dropped after it. `prepare` runs
 * once before the tests (by default: every migration). Call the returned function in a test.
 */
export function suiteStore(
  dialect: DialectName,
  prepare: (store: Store) => Promise<unknown> = migrateToLatest,
): () => Store {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = openTestStore(database);
    await prepare(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return () => {
    if (store === undefined) throw new Error('the store is opened before the tests run');
    return store;
  };
}
