// Writes of a catalog sync: listings, changes and correction terms (the index: catalog.postings.ts).

import { sql } from 'kysely';
import type { Dialect, Store } from '../../db/database.js';
import { multiRowInsert } from '../../db/prepared.js';
import type { CachedSqlite } from '../../db/sqlite-connection.js';
import type { Db } from '../../db/schema.js';
import type { CatalogChangesTable, CatalogListingsTable } from './catalog.tables.js';

export type ListingRow = Omit<CatalogListingsTable, 'seq'> & { seq: number };
export type NewChange = Omit<CatalogChangesTable, 'id'>;

/** Rows per multi-row statement: well under both engines' limits on bound parameters. */
const BATCH = 200;

/** `items` in batches of at most `limit`, as measured by `size` (by default, items). */
export function* batches<T>(
  items: Iterable<T>,
  limit = BATCH,
  size: (item: T) => number = () => 1,
): Generator<T[]> {
  let batch: T[] = [];
  let total = 0;
  for (const item of items) {
    batch.push(item);
    total += size(item);
    if (total >= limit) {
      yield batch;
      batch = [];
      total = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Runs `write` on each batch in order, one statement in flight at a time, taking (and so
 * computing) the next batch while the server runs the last one.
 */
export async function pipelined<T>(
  items: Iterable<T[]>,
  write: (batch: T[]) => Promise<unknown>,
): Promise<void> {
  let inFlight: Promise<unknown> = Promise.resolve();
  for (const batch of items) {
    const written = write(batch);
    // Awaited below; until then a failure must not count as unhandled (a failed statement
    // aborts the transaction, so the batches after it fail as well).
    written.catch(() => undefined);
    await inFlight;
    inFlight = written;
  }
  await inFlight;
}

/** Serialises syncs of several processes starting at once (SQLite's IMMEDIATE transaction already does). */
export async function lockCatalog(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext('bazaar_catalog_sync'))`.execute(db);
  }
}

/**
 * After a sync that rewrote much of the catalog (the threshold autovacuum uses for its own
 * ANALYZE), the planner's statistics: without them PostgreSQL sorts whole filtered catalogs
 * instead of walking a name-order index, and SQLite reads every match of a search from the table
 * instead of from `catalog_listings_matches` (migrations 0010 and 0011). On PostgreSQL also the
 * visibility map, which lets a page by filters read its keys from the index alone. Autovacuum
 * would do the same within minutes (SQLite has nothing that would); a first start should not
 * serve slow pages until then. Runs outside the sync's transaction, as VACUUM must.
 */
export async function refreshStatistics(
  db: Db,
  dialect: Dialect,
  written: number,
  listings: number,
): Promise<void> {
  if (written < 50 + 0.1 * listings) return;
  if (dialect === 'postgres') await sql`vacuum (analyze) catalog_listings`.execute(db);
  else await sql`analyze catalog_listings`.execute(db);
}

/** Every stored listing's content hash and seq (the search index's name for it), by id. */
export async function storedListings(db: Db): Promise<Map<string, { hash: string; seq: number }>> {
  const rows = await db
    .selectFrom('catalog_listings')
    .select(['id', 'content_hash', 'seq'])
    .execute();
  return new Map(rows.map((row) => [row.id, { hash: row.content_hash, seq: row.seq }]));
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

const LISTING_COLUMNS = [
  'seq',
  'id',
  'kind',
  'document',
  'content_hash',
  'categories_key',
  'protocols_key',
  'name_key',
  'names_key',
  'status',
  'license_kind',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ListingRow)[];

/** What a stored listing's row takes from the data again (not its seq, id or creation time). */
const UPDATED_COLUMNS = LISTING_COLUMNS.filter(
  (column) => column !== 'seq' && column !== 'id' && column !== 'created_at',
);

/**
 * The seqs of `count` new listings, in order: the next after the stored ones on SQLite (as its
 * rowids would be), the next of the column's sequence on PostgreSQL.
 */
export async function newSeqs(
  db: Db,
  dialect: Dialect,
  known: ReadonlyMap<string, { seq: number }>,
  count: number,
): Promise<number[]> {
  if (count === 0) return [];
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      seq: string;
    }>`select nextval(pg_get_serial_sequence('catalog_listings', 'seq')) as seq
      from generate_series(1, ${count})`.execute(db);
    return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
  }
  let last = 0;
  for (const { seq } of known.values()) last = Math.max(last, seq);
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}

/**
 * SQLite: each listing is written by a prepared statement run on the connection directly (a
 * first sync writes 100,000s of rows; SQLite runs single-row statements faster than multi-row
 * ones, and the query builder would cost more per row than SQLite does).
 */
function saveListingsSqlite(
  sqlite: CachedSqlite,
  rows: Iterable<ListingRow>,
  known: ReadonlyMap<string, unknown>,
): void {
  const insert = sqlite.prepare(
    `insert into catalog_listings (${LISTING_COLUMNS.join(', ')})
     values (${LISTING_COLUMNS.map(() => '?').join(', ')})`,
  );
  const update = sqlite.prepare(
    `update catalog_listings set ${UPDATED_COLUMNS.map((column) => `${column} = ?`).join(', ')} where id = ?`,
  );
  for (const row of rows) {
    if (known.has(row.id)) update.run(...UPDATED_COLUMNS.map((column) => row[column]), row.id);
    else insert.run(LISTING_COLUMNS.map((column) => row[column]));
  }
}

/**
 * Writes new and changed listings, each under its seq; `known` holds the stored ones. The caller
 * holds the transaction `db`, on `store`. `rows` may be computed as they are taken: on
 * PostgreSQL, while the server writes the last batch.
 */
export async function saveListings(
  db: Db,
  store: Store,
  rows: Iterable<ListingRow>,
  known: ReadonlyMap<string, unknown>,
): Promise<void> {
  if (store.sqlite !== undefined) {
    saveListingsSqlite(store.sqlite, rows, known);
    return;
  }
  await pipelined(batches(rows), (batch) => {
    const { query, values } = upsertListings(batch);
    return query(db, values as never);
  });
}

/**
 * PostgreSQL: a batch of new and changed listings in one statement, compiled once for each batch
 * size (so a first sync's hundreds of statements are neither built by the query builder nor
 * planned by the server one by one).
 */
const upsertListings = multiRowInsert<ListingRow, unknown>(LISTING_COLUMNS, BATCH, (db, rows) =>
  db
    .insertInto('catalog_listings')
    .values(rows)
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({
        kind: eb.ref('excluded.kind'),
        document: eb.ref('excluded.document'),
        content_hash: eb.ref('excluded.content_hash'),
        categories_key: eb.ref('excluded.categories_key'),
        protocols_key: eb.ref('excluded.protocols_key'),
        name_key: eb.ref('excluded.name_key'),
        names_key: eb.ref('excluded.names_key'),
        status: eb.ref('excluded.status'),
        license_kind: eb.ref('excluded.license_kind'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    ),
);

/** Removes listings (their postings go in updatePostings). */
export async function deleteListings(db: Db, ids: readonly string[]): Promise<void> {
  for (const batch of batches(ids)) {
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

export async function insertChanges(
  db: Db,
  store: Store,
  changes: readonly NewChange[],
): Promise<void> {
  if (store.sqlite !== undefined) {
    const insert = store.sqlite.prepare(
      'insert into catalog_changes (listing_id, change, fields, changed_at) values (?, ?, ?, ?)',
    );
    for (const row of changes) insert.run(row.listing_id, row.change, row.fields, row.changed_at);
    return;
  }
  for (const batch of batches(changes)) {
    await db.insertInto('catalog_changes').values(batch).execute();
  }
}
