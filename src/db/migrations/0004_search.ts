import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Catalog search with stemming, aliases and typo tolerance, the listing change history, and the
 * link from a correction request to the listing change it led to.
 *
 * The catalog tables are rebuilt rather than converted: their content is reloaded from the
 * shipped data file at every start, and the indexed words now have a different form (stems).
 * On SQLite the full-text rows are keyed by the listing's integer `seq`, so a listing's search
 * entry is replaced through the index instead of by scanning the full-text table.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const timestamp = pg ? 'timestamptz' : 'text';

  if (pg) {
    // Typo tolerance on names and aliases uses trigram similarity.
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
    } catch (error) {
      throw new Error(
        `the PostgreSQL extension pg_trgm is required for catalog search and could not be created (${(error as Error).message}); install the server's contrib package or create it as a superuser`,
        { cause: error },
      );
    }
  } else {
    await sql`drop table catalog_search`.execute(db);
  }
  await db.schema.dropTable('catalog_listings').execute();

  await db.schema
    .createTable('catalog_listings')
    .addColumn('seq', pg ? 'bigint' : 'integer', (column) =>
      pg ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey(),
    )
    .addColumn('id', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('tool', 'agent', 'framework')`),
    )
    // The listing as published (JSON), and a hash of it to notice when the data file changes it.
    .addColumn('document', 'text', (column) => column.notNull())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    // '|a|b|' lists of lower-case values, so a filter matches whole elements only.
    .addColumn('categories_key', 'text', (column) => column.notNull())
    .addColumn('protocols_key', 'text', (column) => column.notNull())
    // The name's accent-free lower-case words: the list order, and the exact-name test.
    .addColumn('name_key', 'text', (column) => column.notNull())
    // '|a|b|' of the name's and the aliases' stems, for the exact-name-or-alias test.
    .addColumn('names_key', 'text', (column) => column.notNull())
    // Stemmed words (see catalog.text.ts), the same for both engines.
    .addColumn('name_words', 'text', (column) => column.notNull())
    .addColumn('alias_words', 'text', (column) => column.notNull())
    .addColumn('tag_words', 'text', (column) => column.notNull())
    .addColumn('body_words', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_listings_order')
    .on('catalog_listings')
    .columns(['name_key', 'id'])
    .execute();
  await db.schema
    .createIndex('catalog_listings_kind_order')
    .on('catalog_listings')
    .columns(['kind', 'name_key', 'id'])
    .execute();
  await db.schema
    .createIndex('catalog_listings_updated')
    .on('catalog_listings')
    .columns(['updated_at', 'id'])
    .execute();

  if (pg) {
    // Name and aliases weigh A, kind and categories B, everything else D.
    await sql`alter table catalog_listings add column search_vector tsvector generated always as (
      setweight(to_tsvector('simple', name_words || ' ' || alias_words), 'A') ||
      setweight(to_tsvector('simple', tag_words), 'B') ||
      setweight(to_tsvector('simple', body_words), 'D')
    ) stored`.execute(db);
    await sql`create index catalog_listings_search on catalog_listings using gin (search_vector)`.execute(
      db,
    );
  } else {
    await sql`create virtual table catalog_search using fts5(
      name_words, alias_words, tag_words, body_words, tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db);
  }

  // Words of names and aliases, for typo tolerance (pg_trgm on PostgreSQL, in process on SQLite).
  await db.schema
    .createTable('catalog_terms')
    .addColumn('term', 'text', (column) => column.primaryKey())
    .execute();
  if (pg) {
    await sql`create index catalog_terms_trigram on catalog_terms using gin (term gin_trgm_ops)`.execute(
      db,
    );
  }

  await db.schema
    .createTable('catalog_changes')
    .addColumn('id', pg ? 'bigint' : 'integer', (column) =>
      pg ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey(),
    )
    .addColumn('listing_id', 'text', (column) => column.notNull())
    .addColumn('change', 'text', (column) =>
      column.notNull().check(sql`change in ('added', 'changed', 'removed')`),
    )
    // JSON array of the top-level fields that changed.
    .addColumn('fields', 'text', (column) => column.notNull())
    .addColumn('changed_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_changes_listing')
    .on('catalog_changes')
    .columns(['listing_id', 'id'])
    .execute();

  await db.schema
    .alterTable('capability_requests')
    .addColumn('listing_change_id', pg ? 'bigint' : 'integer')
    .execute();
}
