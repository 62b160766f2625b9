import { CompiledQuery, sql, type Compilable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import {
  filterPage,
  listingFactsQuery,
  matchSummary,
} from '../../src/modules/catalog/catalog.search.repository.js';
import { syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { suiteStore, testDialects } from '../helpers/databases.js';

/**
 * A page of the catalog without a query is the first rows in name order: an index must give
 * them, or every such page sorts the whole catalog (PostgreSQL's name order is `collate "C"`).
 */
describe.each(testDialects)('catalog name order (%s)', (dialect) => {
  const store = suiteStore(dialect);

  it.each([
    ['all listings', sql``],
    ['one kind', sql`where l.kind = 'tool'`],
  ])('should read a page of %s from an index, without sorting', async (_label, where) => {
    const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
    const { db } = store();
    const plan = await db.transaction().execute(async (trx) => {
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

  // The keys of a page by filters alone (filterPage): every listing walked past is tested in the
  // index, never read from the table (migration 0010).
  it.each([
    ['catalog_listings_order', sql``],
    ['catalog_listings_kind_order', sql`l.kind = 'tool' and`],
  ])('should test the filters of a page in %s alone', async (index, kind) => {
    const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
    const { db } = store();
    const plan = await db.transaction().execute(async (trx) => {
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
 * SQLite: a search with words reads the facts of its ranked listings (filters, facets, name
 * order) from `catalog_listings_matches` (migration 0011), not from the table's wide rows; a
 * page by filters reads only its own rows from the table. The planner takes that index once the
 * sync has gathered statistics.
 */
describe.runIf(testDialects.includes('sqlite'))('catalog matches read from an index', () => {
  const store = suiteStore('sqlite', async (opened) => {
    await migrateToLatest(opened);
    await syncCatalog(opened, loadCatalogFile());
  });

  const planOf = async (query: Compilable | CompiledQuery) => {
    const { sql: text, parameters } = 'compile' in query ? query.compile() : query;
    const { rows } = await store().db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
    );
    return rows.map((row) => row.detail).join('\n');
  };

  it('should read the facts of ranked listings from the index alone', async () => {
    const plan = await planOf(listingFactsQuery('sqlite', [1, 5, 9]).compile(store().db));
    expect(plan).toMatch(/USING COVERING INDEX catalog_listings_matches \(seq=\?[ )]/);
  });

  it('should count by filters and date from the index, and read only the page from the table', async () => {
    const filter = { kind: 'agent', updatedSince: '2000-01-01T00:00:00.000Z' };
    expect(await planOf(matchSummary(store().db, filter))).not.toMatch(/INTEGER PRIMARY KEY/);
    const plan = await planOf(filterPage(store().db, 'sqlite', filter, { offset: 0, limit: 21 }));
    expect(plan).toMatch(/SEARCH l USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });
});

/**
 * After a sync that rewrote much of the catalog, PostgreSQL's planner has statistics and its
 * visibility map is set (or filter pages sort whole catalogs until autovacuum comes by); a
 * small change leaves that to autovacuum.
 */
describe.runIf(testDialects.includes('postgres'))(
  'catalog statistics after a sync (postgres)',
  () => {
    const store = suiteStore('postgres');

    const statistics = async () => {
      const { rows } = await sql<{ vacuums: string; analyzes: string; columns: string }>`
      select vacuum_count as vacuums, analyze_count as analyzes,
        (select count(*) from pg_stats where tablename = 'catalog_listings') as columns
      from pg_stat_user_tables where relname = 'catalog_listings'`.execute(store().db);
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
      await syncCatalog(store(), listings);
      const loaded = await statistics();
      expect(loaded).toMatchObject({ vacuums: 1, analyzes: 1 });
      expect(loaded.columns).toBeGreaterThan(0);

      const changed = listings.map((entry, i) =>
        i === 0 ? { ...entry, summary: `${entry.summary} Changed.` } : entry,
      );
      await syncCatalog(store(), changed);
      expect(await statistics()).toEqual(loaded);
    });
  },
);

describe.runIf(testDialects.includes('sqlite'))('catalog statistics after a sync (sqlite)', () => {
  const store = suiteStore('sqlite');

  const statistics = async () => {
    const { rows } = await sql<{ idx: string; stat: string }>`select idx, stat from sqlite_stat1
      where tbl = 'catalog_listings' order by idx`.execute(store().db);
    return rows;
  };

  it('should analyze the listings after a large sync only', async () => {
    const listings = loadCatalogFile();
    expect(await statistics()).toEqual([]);
    await syncCatalog(store(), listings);
    expect(await statistics()).toContainEqual({
      idx: 'catalog_listings_matches',
      stat: `${listings.length} 1 1 1 1 1 1 1 1 1 1`,
    });

    await sql`delete from sqlite_stat1`.execute(store().db);
    const changed = listings.map((entry, i) =>
      i === 0 ? { ...entry, summary: `${entry.summary} Changed.` } : entry,
    );
    await syncCatalog(store(), changed);
    expect(await statistics()).toEqual([]);
  });
});
