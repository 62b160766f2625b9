import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationsFor } from '../../src/db/migrations/index.js';
import { catalogGroups } from '../../src/modules/catalog/catalog.repository.js';
import {
  createTestDatabase,
  openTestStore,
  testDialects,
  type TestDatabase,
} from '../helpers/databases.js';

/**
 * Migration 0008 moves SQLite's indexed words out of the listing rows into a contentless FTS5
 * index: a database written before it must still find its listings afterwards.
 */
describe('SQLite search index upgrade (0008_catalog_storage)', () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = openTestStore(database);
  });

  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('should index the words the listing rows held, then drop them from the rows', async () => {
    const migrator = new Migrator({
      db: store.db,
      provider: { getMigrations: () => Promise.resolve(migrationsFor('sqlite')) },
    });
    expect((await migrator.migrateTo('0007_catalog_order')).error).toBeUndefined();
    const now = new Date().toISOString();
    for (const [id, words] of [
      ['first', 'zyxwvut databas'],
      ['second', 'other word'],
    ] as const) {
      await sql`insert into catalog_listings (id, kind, document, content_hash, categories_key,
        protocols_key, name_key, names_key, name_words, alias_words, tag_words, body_words,
        created_at, updated_at)
        values (${id}, 'tool', '{}', 'h', '||', '||', ${id}, ${`|${id}|`}, ${id}, '', 'tool',
        ${words}, ${now}, ${now})`.execute(store.db);
      await sql`insert into catalog_search (rowid, name_words, alias_words, tag_words, body_words)
        select seq, name_words, alias_words, tag_words, body_words from catalog_listings
        where id = ${id}`.execute(store.db);
    }

    expect((await migrator.migrateTo('0008_catalog_storage')).error).toBeUndefined();

    const found = await sql<{ id: string }>`select l.id from catalog_listings l
      join catalog_search s on s.rowid = l.seq where catalog_search match ${'"zyxwvut"'}`.execute(
      store.db,
    );
    expect(found.rows).toEqual([{ id: 'first' }]);
    const byName = await sql<{ id: string }>`select l.id from catalog_listings l
      join catalog_search s on s.rowid = l.seq
      where catalog_search match ${'{name_words} : "second"'}`.execute(store.db);
    expect(byName.rows).toEqual([{ id: 'second' }]);
    const columns = await sql<{
      name: string;
    }>`select name from pragma_table_info('catalog_listings')`.execute(store.db);
    expect(columns.rows.map((column) => column.name)).not.toContain('body_words');

    // Migration 0015 replaces the full-text index by the postings the next sync writes.
    await migrateToLatest(store);
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name like 'catalog_%'`.execute(
      store.db,
    );
    expect(tables.rows.map((table) => table.name)).toContain('catalog_postings');
    expect(tables.rows.map((table) => table.name)).not.toContain('catalog_search');
  });
});

describe.runIf(testDialects.includes('postgres'))(
  'PostgreSQL catalog compression (0008_catalog_storage)',
  () => {
    let database: TestDatabase;
    let store: Store;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      store = openTestStore(database);
      await migrateToLatest(store);
    });

    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('should compress listing documents with LZ4 where the server has it', async () => {
      const { rows } = await sql<{ available: boolean; method: string }>`
      select 'lz4' = any(enumvals) as available,
        (select attcompression from pg_attribute
         where attrelid = 'catalog_listings'::regclass and attname = 'document') as method
      from pg_settings where name = 'default_toast_compression'`.execute(store.db);
      expect(rows[0]?.method).toBe(rows[0]?.available === true ? 'l' : '');
    });
  },
);

describe.each(testDialects)(
  'catalog groups for filter searches (0009_catalog_groups, 0014_catalog_v2, %s)',
  (dialect) => {
    let database: TestDatabase;
    let store: Store;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      store = openTestStore(database);
    });

    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('should replace the old summary of a loaded catalog with its groups', async () => {
      const migrator = new Migrator({
        db: store.db,
        provider: { getMigrations: () => Promise.resolve(migrationsFor(dialect)) },
      });
      expect((await migrator.migrateTo('0008_catalog_storage')).error).toBeUndefined();
      const now = new Date().toISOString();
      // PostgreSQL keeps the word columns its tsvector is generated from; SQLite no longer has them.
      const words =
        dialect === 'postgres' ? sql`, name_words, alias_words, tag_words, body_words` : sql``;
      const noWords = dialect === 'postgres' ? sql`, '', '', '', ''` : sql``;
      // A document of before 0014_catalog_v2 has neither status nor licence kind.
      const lifecycle = '{"status":"deprecated","provenance":{"license_kind":"open_source"}}';
      for (const [id, kind, categories, document] of [
        ['a', 'tool', '|database|', '{}'],
        ['b', 'tool', '|database|', '{}'],
        ['c', 'agent', '|coding-agent|', lifecycle],
      ] as const) {
        await sql`insert into catalog_listings (id, kind, document, content_hash, categories_key,
        protocols_key, name_key, names_key, created_at, updated_at ${words})
        values (${id}, ${kind}, ${document}, 'h', ${categories}, '|mcp|', ${id}, ${`|${id}|`}, ${now},
        ${now} ${noWords})`.execute(store.db);
      }
      await sql`insert into settings (key, value) values ('catalog_summary', '{"total":3,"facets":{}}')`.execute(
        store.db,
      );

      await migrateToLatest(store);

      // Counted again by 0014_catalog_v2, with each listing's status and licence kind.
      expect(await catalogGroups(store.db)).toEqual([
        {
          kind: 'agent',
          categories_key: '|coding-agent|',
          protocols_key: '|mcp|',
          status: 'deprecated',
          license_kind: 'open_source',
          n: 1,
        },
        {
          kind: 'tool',
          categories_key: '|database|',
          protocols_key: '|mcp|',
          status: 'active',
          license_kind: 'unknown',
          n: 2,
        },
      ]);
    });
  },
);
