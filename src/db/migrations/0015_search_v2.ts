import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Catalog search ranks in the service from a postings index kept at every catalog sync, the
 * same on both databases (docs/discovery.md, "Ranking"): for each term (a stem, or `=` and a
 * whole name), its listings' weights, heaviest first, in blocks of 500. The full-text index
 * of FTS5 and PostgreSQL's tsvector, and the word columns they were built from, are no longer
 * read, so they go (with PostgreSQL's word columns). The next start rewrites every listing (the sync's index format changed),
 * which fills the new table.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  if (pg) {
    // Corrections are now looked up in the process on both databases (catalog.analysis.ts).
    await sql`drop index catalog_terms_trigram`.execute(db);
    await sql`alter table catalog_listings drop column search_vector, drop column name_words,
      drop column alias_words, drop column tag_words, drop column body_words`.execute(db);
  } else {
    // SQLite kept the words in the full-text index alone (migration 0008).
    await sql`drop table catalog_search`.execute(db);
  }
  // Byte order ("C") on PostgreSQL, as SQLite compares text: a prefix is a range of the key.
  await sql`create table catalog_postings (
    term text ${pg ? sql`collate "C"` : sql``} not null,
    block integer not null,
    df integer not null,
    entries ${pg ? sql`bytea` : sql`blob`} not null,
    primary key (term, block)
  ) ${pg ? sql`` : sql`without rowid`}`.execute(db);
  // What a search reads of its ranked listings, by seq, from the index alone (SQLite has
  // catalog_listings_matches, migration 0011): 2.4 → 0.9 ms for 300 listings.
  if (pg) {
    await sql`create index catalog_listings_facts on catalog_listings (seq)
      include (id, name_key, kind, categories_key, protocols_key, status, license_kind, updated_at)`.execute(
      db,
    );
  }
}
