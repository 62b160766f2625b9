// Writes of a catalog sync: listings, their full-text rows, changes and correction terms.

import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { CatalogChangesTable, CatalogListingsTable } from './catalog.tables.js';

type Db = Kysely<Database>;
export type ListingRow = Omit<CatalogListingsTable, 'seq'>;
export type NewChange = Omit<CatalogChangesTable, 'id'>;

/** Rows per multi-row statement: well under both engines' limits on bound parameters. */
const BATCH = 200;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/** Serialises syncs of several processes starting at once (SQLite's IMMEDIATE transaction already does). */
export async function lockCatalog(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext('bazaar_catalog_sync'))`.execute(db);
  }
}

export async function listingHashes(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('catalog_listings').select(['id', 'content_hash']).execute();
  return new Map(rows.map((row) => [row.id, row.content_hash]));
}

export async function listingDocuments(db: Db, ids: readonly string[]) {
  const documents = new Map<string, string>();
  for (const batch of batches(ids)) {
    const rows = await db
      .selectFrom('catalog_listings')
      .select(['id', 'document'])
      .where('id', 'in', batch)
      .execute();
    for (const row of rows) documents.set(row.id, row.document);
  }
  return documents;
}

/** SQLite: removes the listings' FTS5 rows, one indexed rowid at a time (FTS5 cannot use an IN list on rowid). */
async function deleteSearchRows(db: Db, ids: readonly string[]): Promise<void> {
  const seqs = await db
    .selectFrom('catalog_listings')
    .select('seq')
    .where('id', 'in', ids)
    .execute();
  for (const { seq } of seqs) {
    await db.deleteFrom('catalog_search').where('rowid', '=', seq).execute();
  }
}

/**
 * Writes new and changed listings and their search entries; `known` says which ids exist
 * already. The caller holds the transaction.
 */
export async function saveListings(
  db: Db,
  dialect: Dialect,
  rows: readonly ListingRow[],
  known: ReadonlySet<string>,
): Promise<void> {
  for (const batch of batches(rows)) {
    // SQLite: the old full-text rows go first (new listings have none).
    if (dialect === 'sqlite') {
      const existing = batch.filter((row) => known.has(row.id)).map((row) => row.id);
      if (existing.length > 0) await deleteSearchRows(db, existing);
    }
    await db
      .insertInto('catalog_listings')
      .values(batch)
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          document: eb.ref('excluded.document'),
          content_hash: eb.ref('excluded.content_hash'),
          categories_key: eb.ref('excluded.categories_key'),
          protocols_key: eb.ref('excluded.protocols_key'),
          name_key: eb.ref('excluded.name_key'),
          names_key: eb.ref('excluded.names_key'),
          name_words: eb.ref('excluded.name_words'),
          alias_words: eb.ref('excluded.alias_words'),
          tag_words: eb.ref('excluded.tag_words'),
          body_words: eb.ref('excluded.body_words'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
    // PostgreSQL's tsvector column is generated from the row; SQLite's FTS5 rows are kept here,
    // keyed by seq so that replacing one is an index lookup.
    if (dialect === 'sqlite') {
      const ids = batch.map((row) => row.id);
      await sql`insert into catalog_search (rowid, name_words, alias_words, tag_words, body_words)
        select seq, name_words, alias_words, tag_words, body_words from catalog_listings
        where id in (${sql.join(ids)})`.execute(db);
    }
  }
}

export async function deleteListings(db: Db, dialect: Dialect, ids: string[]): Promise<void> {
  for (const batch of batches(ids)) {
    if (dialect === 'sqlite') await deleteSearchRows(db, batch);
    await db.deleteFrom('catalog_listings').where('id', 'in', batch).execute();
  }
}

export async function replaceTerms(db: Db, terms: readonly string[]): Promise<void> {
  await db.deleteFrom('catalog_terms').execute();
  for (const batch of batches(terms)) {
    await db
      .insertInto('catalog_terms')
      .values(batch.map((term) => ({ term })))
      .execute();
  }
}

export async function insertChanges(db: Db, changes: readonly NewChange[]): Promise<void> {
  for (const batch of batches(changes)) {
    await db.insertInto('catalog_changes').values(batch).execute();
  }
}
