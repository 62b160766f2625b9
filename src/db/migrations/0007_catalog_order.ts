import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * PostgreSQL lists the catalog by name in byte order (`collate "C"`, the order SQLite uses), but
 * its name indexes were built in the database's default collation, which that order cannot
 * use: every page of a list without a query sorted the whole catalog. The indexes are rebuilt
 * in the order the queries ask for. SQLite's already match.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`drop index catalog_listings_order`.execute(db);
  await sql`drop index catalog_listings_kind_order`.execute(db);
  await sql`create index catalog_listings_order on catalog_listings (name_key collate "C", id)`.execute(
    db,
  );
  await sql`create index catalog_listings_kind_order on catalog_listings (kind, name_key collate "C", id)`.execute(
    db,
  );
}
