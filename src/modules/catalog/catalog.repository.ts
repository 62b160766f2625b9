import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { escapeLike, TYPO_SIMILARITY, type Group } from './catalog.text.js';
import type { CatalogChangesTable, CatalogListingsTable } from './catalog.tables.js';

type Db = Kysely<Database>;
export type ListingRow = Omit<CatalogListingsTable, 'seq'>;
export type NewChange = Omit<CatalogChangesTable, 'id'>;

/** Rows per multi-row statement: well under both engines' limits on bound parameters. */
const BATCH = 200;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

const VERSION_KEY = 'catalog_version';
const SUMMARY_KEY = 'catalog_summary';

/** The total and facets of the whole catalog (JSON), kept by every sync that changes it. */
export async function catalogSummary(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SUMMARY_KEY)
    .executeTakeFirst();
  return row?.value;
}

export async function setCatalogSummary(db: Db, value: string): Promise<void> {
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
    // SQLite: the old full-text rows go first, one indexed rowid at a time (FTS5 cannot use an
    // IN list on rowid, and new listings have none).
    if (dialect === 'sqlite') {
      const existing = batch.filter((row) => known.has(row.id)).map((row) => row.id);
      if (existing.length > 0) {
        const seqs = await db
          .selectFrom('catalog_listings')
          .select('seq')
          .where('id', 'in', existing)
          .execute();
        for (const { seq } of seqs) {
          await db.deleteFrom('catalog_search').where('rowid', '=', seq).execute();
        }
      }
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
    if (dialect === 'sqlite') {
      const seqs = await db
        .selectFrom('catalog_listings')
        .select('seq')
        .where('id', 'in', batch)
        .execute();
      for (const { seq } of seqs) {
        await db.deleteFrom('catalog_search').where('rowid', '=', seq).execute();
      }
    }
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

export async function allTerms(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('catalog_terms').select('term').execute();
  return rows.map((row) => row.term);
}

/** PostgreSQL: the name or alias word most similar to `word` by pg_trgm, if similar enough. */
export async function closestTermPg(db: Db, word: string): Promise<string | undefined> {
  const row = await sql<{ term: string }>`select term from catalog_terms
    where term % ${word} and similarity(term, ${word}) >= ${TYPO_SIMILARITY}
    order by similarity(term, ${word}) desc, term collate "C" limit 1`.execute(db);
  return row.rows[0]?.term;
}

export async function insertChanges(db: Db, changes: readonly NewChange[]): Promise<void> {
  for (const batch of batches(changes)) {
    await db.insertInto('catalog_changes').values(batch).execute();
  }
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

export interface ListingFilter {
  /** The query as groups of terms (see catalog.text.ts); empty for no text search. */
  groups: Group[];
  /** The query's key, compared with the name and each alias for the exact-name tier. */
  exactKey: string;
  kind?: string | undefined;
  category?: string | undefined;
  protocol?: string | undefined;
  updatedSince?: string | undefined;
}

/** The full-text expression of the groups, for FTS5 or for PostgreSQL's to_tsquery. */
function matchExpression(dialect: Dialect, groups: Group[], identityOnly = false): string {
  const and = dialect === 'postgres' ? ' & ' : ' AND ';
  const or = dialect === 'postgres' ? ' | ' : ' OR ';
  // Terms are letters and digits only (searchWords), so they never carry query syntax.
  const weights = identityOnly ? 'AB' : '';
  const term = (word: string, prefix: boolean) =>
    dialect === 'postgres'
      ? `${word}:${prefix ? '*' : ''}${weights}`.replace(/:$/, '')
      : `"${word}"${prefix ? '*' : ''}`;
  const expression = groups
    .map(
      (group) =>
        `(${group
          .map(
            (alternative) =>
              `(${alternative
                .map(({ stem, prefix }) =>
                  prefix === null
                    ? term(stem, false)
                    : `(${term(stem, true)}${or}${term(prefix, true)})`,
                )
                .join(and)})`,
          )
          .join(or)})`,
    )
    .join(and);
  if (dialect === 'sqlite' && identityOnly)
    return `{name_words alias_words tag_words} : (${expression})`;
  return expression;
}

function filtered(db: Db, dialect: Dialect, filter: ListingFilter) {
  const contains = (column: 'categories_key' | 'protocols_key', value: string) =>
    sql<boolean>`${sql.ref(`l.${column}`)} like ${`%|${escapeLike(value.toLowerCase())}|%`} escape '\\'`;
  let query = db
    .selectFrom('catalog_listings as l')
    .$if(filter.kind !== undefined, (q) =>
      q.where('l.kind', '=', filter.kind as CatalogListingsTable['kind']),
    )
    .$if(filter.category !== undefined, (q) =>
      q.where(contains('categories_key', filter.category ?? '')),
    )
    .$if(filter.protocol !== undefined, (q) =>
      q.where(contains('protocols_key', filter.protocol ?? '')),
    )
    .$if(filter.updatedSince !== undefined, (q) =>
      q.where('l.updated_at', '>', filter.updatedSince ?? ''),
    );
  if (filter.groups.length > 0) {
    const expression = matchExpression(dialect, filter.groups);
    // On SQLite the match is on the joined FTS5 table itself, so that bm25() can rank it.
    query =
      dialect === 'postgres'
        ? query.where(sql<boolean>`l.search_vector @@ to_tsquery('simple', ${expression})`)
        : query
            .innerJoin('catalog_search', 'catalog_search.rowid', 'l.seq')
            .where(sql<boolean>`catalog_search match ${expression}`);
  }
  return query;
}

/** How many matches have each combination of kind, categories and protocols: the total and the facets. */
export function matchSummaryRows(db: Db, dialect: Dialect, filter: ListingFilter) {
  return filtered(db, dialect, filter)
    .select((eb) => [
      'l.kind',
      'l.categories_key',
      'l.protocols_key',
      eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['l.kind', 'l.categories_key', 'l.protocols_key'])
    .execute();
}

/** Whether anything matches (used to decide which query words are misspelt). */
export async function anyMatch(db: Db, dialect: Dialect, groups: Group[]): Promise<boolean> {
  const row = await filtered(db, dialect, { groups, exactKey: '' })
    .select('l.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One page of listings, ranked (docs/discovery.md, "Ranking"): a listing whose name or alias is
 * the query; then listings where every part of the query is found in the name, an alias, the
 * kind or a category (what the listing *is*); then the rest. Within each tier by the engine's
 * relevance (name and aliases weigh most, then kind and categories, then the text), then by
 * name and id, so pages never overlap or skip. Without a query: by name.
 */
export function searchPage(
  db: Db,
  dialect: Dialect,
  filter: ListingFilter,
  page: { offset: number; limit: number },
) {
  const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
  let query = filtered(db, dialect, filter).select(['l.document', 'l.created_at', 'l.updated_at']);
  if (filter.groups.length > 0) {
    const exact = `%|${escapeLike(filter.exactKey)}|%`;
    const identity = matchExpression(dialect, filter.groups, true);
    let tier: RawBuilder<unknown>;
    let relevance: RawBuilder<unknown>;
    if (dialect === 'postgres') {
      const all = matchExpression(dialect, filter.groups);
      tier = sql`case when l.names_key like ${exact} escape '\\' then 0 when l.search_vector @@ to_tsquery('simple', ${identity}) then 1 else 2 end`;
      relevance = sql`ts_rank(l.search_vector, to_tsquery('simple', ${all})) desc`;
    } else {
      tier = sql`case when l.names_key like ${exact} escape '\\' then 0 when l.seq in (select rowid from catalog_search where catalog_search match ${identity}) then 1 else 2 end`;
      relevance = sql`bm25(catalog_search, 10.0, 8.0, 3.0, 1.0)`;
    }
    query = query.orderBy(tier).orderBy(relevance);
  }
  return query.orderBy(byName).orderBy('l.id').limit(page.limit).offset(page.offset).execute();
}
