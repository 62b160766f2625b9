import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * A page of listings by filters alone walks a name-order index and tests each listing's kind,
 * categories, protocols and `updated_at` until it has its page. With only the name in the
 * index, every listing walked past was read from the table (a row of about 2 kB with its
 * document), and a category's listings may lie far apart in name order: at 100,000 listings a
 * page took 20–40 ms. The name-order indexes now carry what the filters test (and, on
 * PostgreSQL, the row's key), so the walk stays in the index and only the page's rows are read.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`drop index catalog_listings_order`.execute(db);
  await sql`drop index catalog_listings_kind_order`.execute(db);
  if (dialect === 'postgres') {
    await sql`create index catalog_listings_order on catalog_listings (name_key collate "C", id)
      include (kind, categories_key, protocols_key, updated_at, seq)`.execute(db);
    await sql`create index catalog_listings_kind_order
      on catalog_listings (kind, name_key collate "C", id)
      include (categories_key, protocols_key, updated_at, seq)`.execute(db);
    return;
  }
  // SQLite has no INCLUDE; its indexes end with the rowid (seq) already.
  await sql`create index catalog_listings_order
    on catalog_listings (name_key, id, kind, categories_key, protocols_key, updated_at)`.execute(
    db,
  );
  await sql`create index catalog_listings_kind_order
    on catalog_listings (kind, name_key, id, categories_key, protocols_key, updated_at)`.execute(
    db,
  );
}
