import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { escapeLike } from './catalog.text.js';
import type { CatalogListingsTable } from './catalog.tables.js';

type Db = Kysely<Database>;

export async function listingHashes(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('catalog_listings').select(['id', 'content_hash']).execute();
  return new Map(rows.map((row) => [row.id, row.content_hash]));
}

/** Writes a listing and its search entry; the caller holds the transaction. */
export async function saveListing(
  db: Db,
  dialect: Dialect,
  row: CatalogListingsTable,
): Promise<void> {
  const { id: _id, ...changes } = row;
  await db
    .insertInto('catalog_listings')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doUpdateSet(changes))
    .execute();
  // PostgreSQL's tsvector column is generated from the row; SQLite's FTS5 table is kept here.
  if (dialect === 'sqlite') {
    await db.deleteFrom('catalog_search').where('id', '=', row.id).execute();
    await db
      .insertInto('catalog_search')
      .values({ id: row.id, name_words: row.name_words, body_words: row.body_words })
      .execute();
  }
}

export async function deleteListings(db: Db, dialect: Dialect, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('catalog_listings').where('id', 'in', ids).execute();
  if (dialect === 'sqlite') await db.deleteFrom('catalog_search').where('id', 'in', ids).execute();
}

export function findListing(db: Db, id: string) {
  return db
    .selectFrom('catalog_listings')
    .select(['document', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface ListingFilter {
  /** Search words, already normalised; empty for no text search. */
  words: string[];
  kind?: string | undefined;
  category?: string | undefined;
  protocol?: string | undefined;
  offset: number;
  limit: number;
}

/**
 * One page of listings. With words: full-text match in the database's own engine (every word,
 * the last also as a prefix), listings whose name matches first, then by relevance; without:
 * by name. Name and id break ties, so pages never overlap or skip.
 */
export function searchListings(db: Db, dialect: Dialect, filter: ListingFilter) {
  const contains = (column: 'categories_key' | 'protocols_key', value: string) =>
    sql<boolean>`${sql.ref(`catalog_listings.${column}`)} like ${`%|${escapeLike(value.toLowerCase())}|%`} escape '\\'`;
  const byName =
    dialect === 'postgres'
      ? sql`catalog_listings.name_words collate "C"`
      : sql`catalog_listings.name_words`;

  let query = db
    .selectFrom('catalog_listings')
    .select(['catalog_listings.document', 'catalog_listings.updated_at'])
    .$if(filter.kind !== undefined, (q) =>
      q.where('catalog_listings.kind', '=', filter.kind as CatalogListingsTable['kind']),
    )
    .$if(filter.category !== undefined, (q) =>
      q.where(contains('categories_key', filter.category ?? '')),
    )
    .$if(filter.protocol !== undefined, (q) =>
      q.where(contains('protocols_key', filter.protocol ?? '')),
    );

  if (filter.words.length > 0) {
    // An exact name first, then other listings whose name matches, then matches elsewhere.
    const exactName = filter.words.join(' ');
    if (dialect === 'postgres') {
      const tsquery = filter.words
        .map((word, i) => (i === filter.words.length - 1 ? `${word}:*` : word))
        .join(' & ');
      const q = sql`to_tsquery('simple', ${tsquery})`;
      query = query
        .where(sql<boolean>`catalog_listings.search_vector @@ ${q}`)
        .orderBy(
          sql`case when catalog_listings.name_words = ${exactName} then 0 when to_tsvector('simple', catalog_listings.name_words) @@ ${q} then 1 else 2 end`,
        )
        .orderBy(sql`ts_rank(catalog_listings.search_vector, ${q})`, 'desc');
    } else {
      const phrases = filter.words
        .map((word, i) => `"${word}"${i === filter.words.length - 1 ? '*' : ''}`)
        .join(' ');
      query = query
        .innerJoin('catalog_search', 'catalog_search.id', 'catalog_listings.id')
        .where(sql<boolean>`catalog_search match ${phrases}`)
        .orderBy(
          sql`case when catalog_listings.name_words = ${exactName} then 0 when catalog_listings.id in (select id from catalog_search where catalog_search match ${`{name_words} : (${phrases})`}) then 1 else 2 end`,
        )
        .orderBy(sql`bm25(catalog_search, 0.0, 10.0, 1.0)`);
    }
  }
  return query
    .orderBy(byName)
    .orderBy('catalog_listings.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}
