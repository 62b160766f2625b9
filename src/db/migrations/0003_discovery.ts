import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Capability discovery: the catalog (loaded from the shipped data file), its full-text index in
 * each database's own engine, filed requests, and the daily request counters.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';

  await db.schema
    .createTable('catalog_listings')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('tool', 'agent', 'framework')`),
    )
    // The listing as published (JSON), and a hash of it to notice when the data file changes it.
    .addColumn('document', 'text', (column) => column.notNull())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    // '|a|b|' lists of lower-case values, so a filter matches whole elements only.
    .addColumn('categories_key', 'text', (column) => column.notNull())
    .addColumn('protocols_key', 'text', (column) => column.notNull())
    // Accent-free, lower-case words: the same tokens for both search engines and the name order.
    .addColumn('name_words', 'text', (column) => column.notNull())
    .addColumn('body_words', 'text', (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();

  if (dialect === 'postgres') {
    await sql`alter table catalog_listings add column search_vector tsvector generated always as (
      setweight(to_tsvector('simple', name_words), 'A') || setweight(to_tsvector('simple', body_words), 'B')
    ) stored`.execute(db);
    await sql`create index catalog_listings_search on catalog_listings using gin (search_vector)`.execute(
      db,
    );
  } else {
    await sql`create virtual table catalog_search using fts5(
      id unindexed, name_words, body_words, tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db);
  }

  await db.schema
    .createTable('capability_requests')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('capability', 'correction', 'pilot')`),
    )
    .addColumn('task', 'text', (column) => column.notNull())
    .addColumn('contact', 'text')
    .addColumn('client', 'text', (column) =>
      column.notNull().check(sql`client in ('unspecified', 'instinct', 'muse', 'other')`),
    )
    .addColumn('blocker', 'text', (column) =>
      column.check(
        sql`blocker in ('missing_capability', 'authentication', 'cost', 'compatibility', 'quality')`,
      ),
    )
    .addColumn('capability_id', 'text')
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .check(sql`status in ('received', 'reviewing', 'planned', 'completed', 'declined')`),
    )
    .addColumn('response', 'text')
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('capability_requests_status')
    .on('capability_requests')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('request_quota')
    .addColumn('day', 'text', (column) => column.notNull())
    // 'all', or 'client:' + SHA-256 of the client address (the address itself is not kept).
    .addColumn('scope', 'text', (column) => column.notNull())
    .addColumn('used', 'integer', (column) => column.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint('request_quota_pk', ['day', 'scope'])
    .execute();
}
