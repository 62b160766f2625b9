import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import {
  createTestDatabase,
  openTestStore,
  testDialects,
  type TestDatabase,
} from '../helpers/databases.js';

/**
 * A page of the catalog without a query is the first rows in name order: an index must give
 * them, or every such page sorts the whole catalog (PostgreSQL's name order is `collate "C"`).
 */
describe.each(testDialects)('catalog name order (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = openTestStore(database);
    await migrateToLatest(store);
  });

  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it.each([
    ['all listings', sql``],
    ['one kind', sql`where l.kind = 'tool'`],
  ])('should read a page of %s from an index, without sorting', async (_label, where) => {
    const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
    const plan = await store.db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const explain = dialect === 'postgres' ? sql`explain` : sql`explain query plan`;
      const result = await sql<
        Record<string, unknown>
      >`${explain} select l.id from catalog_listings l ${where}
        order by ${byName}, l.id limit 20`.execute(trx);
      return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toMatch(/catalog_listings_(kind_)?order/);
    expect(plan).not.toMatch(/Sort|TEMP B-TREE/);
  });

  // The keys of a page by filters alone (searchPage): every listing walked past is tested in the
  // index, never read from the table (migration 0010).
  it.each([
    ['catalog_listings_order', sql``],
    ['catalog_listings_kind_order', sql`l.kind = 'tool' and`],
  ])('should test the filters of a page in %s alone', async (index, kind) => {
    const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
    const plan = await store.db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
      }
      const explain = dialect === 'postgres' ? sql`explain` : sql`explain query plan`;
      const result = await sql<Record<string, unknown>>`${explain}
        select l.seq, l.name_key, l.id from catalog_listings l
        where ${kind} l.categories_key like '%|rag|%' and l.protocols_key like '%|mcp|%'
        order by ${byName}, l.id limit 21`.execute(trx);
      return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toMatch(
      new RegExp(
        dialect === 'postgres'
          ? `Index Only Scan using ${index}\\b`
          : `USING COVERING INDEX ${index}\\b`,
      ),
    );
  });
});

/**
 * After a sync that rewrote much of the catalog, PostgreSQL's planner has statistics and its
 * visibility map is set (or filter pages sort whole catalogs until autovacuum comes by); a
 * small change leaves that to autovacuum.
 */
describe.runIf(testDialects.includes('postgres'))('catalog statistics after a sync', () => {
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

  const statistics = async () => {
    const { rows } = await sql<{ vacuums: string; analyzes: string; columns: string }>`
      select vacuum_count as vacuums, analyze_count as analyzes,
        (select count(*) from pg_stats where tablename = 'catalog_listings') as columns
      from pg_stat_user_tables where relname = 'catalog_listings'`.execute(store.db);
    const row = rows[0];
    return {
      vacuums: Number(row?.vacuums),
      analyzes: Number(row?.analyzes),
      columns: Number(row?.columns),
    };
  };

  it('should vacuum and analyze the listings after a large sync only', async () => {
    const listings = loadCatalogFile();
    expect((await statistics()).columns).toBe(0);
    await syncCatalog(store, listings);
    const loaded = await statistics();
    expect(loaded).toMatchObject({ vacuums: 1, analyzes: 1 });
    expect(loaded.columns).toBeGreaterThan(0);

    const changed = listings.map((entry, i) =>
      i === 0 ? { ...entry, summary: `${entry.summary} Changed.` } : entry,
    );
    await syncCatalog(store, changed);
    expect(await statistics()).toEqual(loaded);
  });
});
