// Search SQL: the postings of query terms, the facts of ranked listings, and pages by filters.

import { sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Db } from '../../db/schema.js';
import { escapeLike } from './catalog.text.js';
import type { CatalogListingsTable } from './catalog.tables.js';

/** Rows per IN list. */
const BATCH = 500;

export async function allTerms(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('catalog_terms').select('term').execute();
  return rows.map((row) => row.term);
}

/**
 * The first block of each term's postings (the listings it weighs most in), and its count.
 * PostgreSQL sends the bytes as base64, which this process decodes faster than bytea's hex.
 */
export async function termBlocks(
  db: Db,
  dialect: Dialect,
  terms: readonly string[],
): Promise<{ term: string; df: number; entries: Uint8Array }[]> {
  if (terms.length === 0) return [];
  if (dialect === 'sqlite')
    return db
      .selectFrom('catalog_postings')
      .select(['term', 'df', 'entries'])
      .where('block', '=', 0)
      .where('term', 'in', [...terms])
      .execute();
  const { rows } = await sql<{ term: string; df: number; entries: string }>`
    select term, df, encode(entries, 'base64') as entries from catalog_postings
    where block = 0 and term = any(${[...terms]}::text[])`.execute(db);
  return rows.map((row) => ({ ...row, entries: Buffer.from(row.entries, 'base64') }));
}

/** Up to `limit` indexed terms that start with `prefix`, in byte order, with their counts. */
export async function termsStartingWith(
  db: Db,
  prefix: string,
  limit: number,
  options: { oneWord?: boolean } = {},
) {
  return db
    .selectFrom('catalog_postings')
    .select(['term', 'df'])
    .where('term', '>=', prefix)
    .where('term', '<', `${prefix}\u{10ffff}`)
    .where('block', '=', 0)
    .$if(options.oneWord === true, (query) => query.where('term', 'not like', '% %'))
    .orderBy('term')
    .limit(limit)
    .execute();
}

export interface ListingFacts {
  seq: number;
  id: string;
  name_key: string;
  kind: string;
  categories_key: string;
  protocols_key: string;
  status: string;
  license_kind: string;
  updated_at: string;
}

/**
 * The query for what filters, facets and the name order need of some listings (one parameter,
 * the list): on SQLite from `catalog_listings_matches` alone (migration 0011), never from the
 * table's wide rows, which the planner would otherwise read by key.
 */
export const listingFactsQuery = (dialect: Dialect, seqs: readonly number[]) =>
  dialect === 'sqlite'
    ? sql<ListingFacts>`select l.seq, l.id, l.name_key, l.kind, l.categories_key, l.protocols_key,
        l.status, l.license_kind, l.updated_at from json_each(${JSON.stringify(seqs)}) j
        join catalog_listings l indexed by catalog_listings_matches on l.seq = j.value`
    : sql<ListingFacts>`select seq, id, name_key, kind, categories_key, protocols_key, status,
        license_kind, updated_at from catalog_listings where seq = any(${seqs}::bigint[])`;

/** What filters, facets and the name order need of ranked listings. */
export async function listingFacts(
  db: Db,
  dialect: Dialect,
  seqs: readonly number[],
): Promise<ListingFacts[]> {
  const facts: ListingFacts[] = [];
  for (let i = 0; i < seqs.length; i += BATCH) {
    const batch = seqs.slice(i, i + BATCH);
    if (batch.length === 0) break;
    const { rows } = await listingFactsQuery(dialect, batch).execute(db);
    for (const row of rows) facts.push(row);
  }
  return facts;
}

/** The listings of a page, in the order of `seqs`. */
export async function listingsBySeq(db: Db, seqs: readonly number[]) {
  if (seqs.length === 0) return [];
  const rows = await db
    .selectFrom('catalog_listings')
    .select(['seq', 'document', 'created_at', 'updated_at'])
    .where('seq', 'in', [...seqs])
    .execute();
  const bySeq = new Map(rows.map((row) => [row.seq, row]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}

export interface ListingFilter {
  kind?: string | undefined;
  category?: string | undefined;
  protocol?: string | undefined;
  status?: CatalogListingsTable['status'] | undefined;
  license_kind?: CatalogListingsTable['license_kind'] | undefined;
  updatedSince?: string | undefined;
}

function filtered(db: Db, filter: ListingFilter) {
  const contains = (column: 'categories_key' | 'protocols_key', value: string) =>
    sql<boolean>`${sql.ref(`l.${column}`)} like ${`%|${escapeLike(value.toLowerCase())}|%`} escape '\\'`;
  return db
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
}

/** How many listings pass the filters for each combination of kind, categories and protocols. */
export function matchSummary(db: Db, filter: ListingFilter) {
  return filtered(db, filter)
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

/**
 * One page of the listings that pass the filters, by name and id (a search without words). The
 * page's keys come first from a name-order index that holds what the filters test (migration
 * 0010), then only those rows are read whole.
 */
export function filterPage(
  db: Db,
  dialect: Dialect,
  filter: ListingFilter,
  page: { offset: number; limit: number },
) {
  const byName = (table: 'l' | 'p') =>
    dialect === 'postgres'
      ? sql`${sql.ref(`${table}.name_key`)} collate "C"`
      : sql.ref(`${table}.name_key`);
  const keys = filtered(db, filter)
    .select(['l.seq', 'l.name_key', 'l.id'])
    .orderBy(byName('l'))
    .orderBy('l.id')
    .limit(page.limit)
    .offset(page.offset);
  return db
    .selectFrom(keys.as('p'))
    .innerJoin('catalog_listings as l', 'l.seq', 'p.seq')
    .select(['l.document', 'l.created_at', 'l.updated_at'])
    .orderBy(byName('p'))
    .orderBy('p.id');
}
