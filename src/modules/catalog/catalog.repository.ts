// Catalog reads by id and the catalog's settings (version, summary, loaded file).

import type { Db } from '../../db/schema.js';
import type { MatchGroup } from './catalog.facets.js';

const VERSION_KEY = 'catalog_version';
const SUMMARY_KEY = 'catalog_summary';

/**
 * How many listings have each combination of kind, categories and protocols, kept by every sync
 * that changes the catalog (and filled in by migration 0009): a search by filters alone is
 * counted and faceted from it.
 */
export async function catalogGroups(db: Db): Promise<MatchGroup[]> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SUMMARY_KEY)
    .executeTakeFirst();
  return row === undefined ? [] : (JSON.parse(row.value) as MatchGroup[]);
}

export async function setCatalogGroups(db: Db, groups: MatchGroup[]): Promise<void> {
  const value = JSON.stringify(groups);
  await db
    .insertInto('settings')
    .values({ key: SUMMARY_KEY, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

/** Changes whenever a sync changes the catalog: the key of every cached search answer. */
export async function catalogVersion(db: Db): Promise<string> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', VERSION_KEY)
    .executeTakeFirst();
  return row?.value ?? '';
}

export async function setCatalogVersion(db: Db, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: VERSION_KEY, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

const FILE_KEY = 'catalog_file_hash';

export async function loadedFileHash(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', FILE_KEY)
    .executeTakeFirst();
  return row?.value ?? null;
}

export async function setLoadedFileHash(db: Db, value: string | null): Promise<void> {
  if (value === null) {
    await db.deleteFrom('settings').where('key', '=', FILE_KEY).execute();
    return;
  }
  await db
    .insertInto('settings')
    .values({ key: FILE_KEY, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

export function findListing(db: Db, id: string) {
  return db
    .selectFrom('catalog_listings')
    .select(['document', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listingChanges(db: Db, id: string, limit: number) {
  return db
    .selectFrom('catalog_changes')
    .selectAll()
    .where('listing_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest added or changed listings, for the feed. */
export function recentChanges(db: Db, limit: number) {
  return db
    .selectFrom('catalog_changes')
    .innerJoin('catalog_listings', 'catalog_listings.id', 'catalog_changes.listing_id')
    .select([
      'catalog_changes.id',
      'catalog_changes.listing_id',
      'catalog_changes.change',
      'catalog_changes.fields',
      'catalog_changes.changed_at',
      'catalog_listings.document',
    ])
    .where('catalog_changes.change', 'in', ['added', 'changed'])
    .orderBy('catalog_changes.id', 'desc')
    .limit(limit)
    .execute();
}
