import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * SQLite: a search with words counts, facets and ranks every match, and read each one's row
 * from the table to do so: a row of about 2 kB with its document, for a few columns. This index
 * holds those columns in row order, so the matches are read from it instead (at 100,000
 * listings, a common word's count and facets 150–200 → 50–90 ms, its ranked keys 285 → 85–135
 * ms). The planner takes it once it has statistics, kept by the catalog sync
 * (`refreshStatistics`); they are gathered here for a catalog already loaded.
 *
 * PostgreSQL ranks with each match's `tsvector`, which only the table holds: nothing to add.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`create index catalog_listings_matches on catalog_listings
    (seq, kind, categories_key, protocols_key, updated_at, names_key, name_key, id)`.execute(db);
  await sql`analyze catalog_listings`.execute(db);
}
