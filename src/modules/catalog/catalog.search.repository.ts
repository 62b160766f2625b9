// Search SQL: filters, the full-text match, ranking, and the correction terms.

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { escapeLike, TYPO_SIMILARITY, type Group } from './catalog.text.js';
import type { CatalogListingsTable } from './catalog.tables.js';

type Db = Kysely<Database>;

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

export interface ListingFilter {
  /** The query as groups of terms (see catalog.text.ts); empty for no text search. */
  groups: Group[];
  /** The query's key, compared with the name and each alias for the exact-name tier. */
  exactKey: string;
  kind?: string | undefined;
  category?: string | undefined;
  protocol?: string | undefined;
  status?: CatalogListingsTable['status'] | undefined;
  license_kind?: CatalogListingsTable['license_kind'] | undefined;
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
    .$if(filter.status !== undefined, (q) => q.where('l.status', '=', filter.status ?? 'active'))
    .$if(filter.license_kind !== undefined, (q) =>
      q.where('l.license_kind', '=', filter.license_kind ?? 'unknown'),
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

/**
 * The query for how many matches have each combination of kind, categories and protocols: the
 * total and the facets.
 */
export function matchSummary(db: Db, dialect: Dialect, filter: ListingFilter) {
  return filtered(db, dialect, filter)
    .select((eb) => [
      'l.kind',
      'l.categories_key',
      'l.protocols_key',
      'l.status',
      'l.license_kind',
      eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['l.kind', 'l.categories_key', 'l.protocols_key', 'l.status', 'l.license_kind']);
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
 * The query for one page of listings, ranked (docs/discovery.md, "Ranking"): a listing whose
 * name or alias is the query; then listings where every part of the query is found in the name,
 * an alias, the kind or a category (what the listing *is*); then the rest. Within each tier by
 * the engine's relevance (name and aliases weigh most, then kind and categories, then the
 * text), then by name and id, so pages never overlap or skip. Without a query: by name.
 */
export function searchPage(
  db: Db,
  dialect: Dialect,
  filter: ListingFilter,
  page: { offset: number; limit: number },
) {
  const byName = (table: 'l' | 'p') =>
    dialect === 'postgres'
      ? sql`${sql.ref(`${table}.name_key`)} collate "C"`
      : sql.ref(`${table}.name_key`);
  // The page's keys first, then only those rows: the listings ranked or passed over are never
  // read whole (nor, with words, sorted with their documents). By filters alone the keys come
  // from a name-order index that holds what the filters test (migration 0010).
  let keys = filtered(db, dialect, filter).select(['l.seq', 'l.name_key', 'l.id']);
  let relevanceOrder: 'asc' | 'desc' = 'asc';
  if (filter.groups.length > 0) {
    const exact = `%|${escapeLike(filter.exactKey)}|%`;
    const identity = matchExpression(dialect, filter.groups, true);
    let tier: RawBuilder<number>;
    let relevance: RawBuilder<number>;
    if (dialect === 'postgres') {
      const all = matchExpression(dialect, filter.groups);
      tier = sql`case when l.names_key like ${exact} escape '\\' then 0 when l.search_vector @@ to_tsquery('simple', ${identity}) then 1 else 2 end`;
      relevance = sql`ts_rank(l.search_vector, to_tsquery('simple', ${all}))`;
      relevanceOrder = 'desc';
    } else {
      tier = sql`case when l.names_key like ${exact} escape '\\' then 0 when l.seq in (select rowid from catalog_search where catalog_search match ${identity}) then 1 else 2 end`;
      relevance = sql`bm25(catalog_search, 10.0, 8.0, 3.0, 1.0)`;
    }
    keys = keys
      .select([tier.as('tier'), relevance.as('relevance')])
      .orderBy('tier')
      .orderBy('relevance', relevanceOrder);
  }
  const ranked = filter.groups.length > 0;
  return db
    .selectFrom(
      keys.orderBy(byName('l')).orderBy('l.id').limit(page.limit).offset(page.offset).as('p'),
    )
    .innerJoin('catalog_listings as l', 'l.seq', 'p.seq')
    .select(['l.document', 'l.created_at', 'l.updated_at'])
    .$if(ranked, (q) =>
      q.orderBy(sql.ref('p.tier')).orderBy(sql.ref('p.relevance'), relevanceOrder),
    )
    .orderBy(byName('p'))
    .orderBy('p.id');
}
