// Keeps the search index (catalog_postings) equal to the listings at every catalog sync.

import { sql } from 'kysely';
import type { Store } from '../../db/database.js';
import type { Db } from '../../db/schema.js';
import { inTermOrder, PostingsBuilder } from './catalog.index.js';
import { decodePostings, postingBytes } from './catalog.posting-list.js';
import type { ListingEntry } from './catalog.schemas.js';
import { batches, pipelined } from './catalog.sync.repository.js';

/**
 * Postings per stored block. A query reads only each term's first block: the BLOCK listings
 * the term weighs most in. A term in more listings than that makes the total an estimate.
 */
export const BLOCK = 500;

/** Terms per statement when reading or deleting. */
const TERMS = 200;
/** PostgreSQL: bytes of postings per statement (sent as one binary parameter). */
const STATEMENT_BYTES = 4 << 20;

export interface IndexedListing {
  entry: ListingEntry;
  seq: number;
}

/**
 * Stores the postings of every term that the listings added to `index` (new and changed
 * listings, as they are now) or `stale` (changed and removed listings, as they were) contain:
 * the stale and changed listings' stored postings are dropped, the added ones' merged in, and
 * each such term's list is stored again in order. With no postings stored yet (a first start),
 * there is nothing to read or drop.
 */
export async function writePostings(
  db: Db,
  store: Store,
  index: PostingsBuilder,
  stale: readonly IndexedListing[],
): Promise<void> {
  const old = new PostingsBuilder();
  for (const { entry, seq } of stale) old.add(entry, seq);
  for (const term of old.terms) index.termNumber(term);
  const terms = index.terms;
  const stored = await db.selectFrom('catalog_postings').select('term').limit(1).execute();
  if (stored.length > 0) {
    const dropped = new Set([...old.added, ...index.added]);
    for (let i = 0; i < terms.length; i += TERMS) {
      const chunk = terms.slice(i, i + TERMS);
      const rows = await db
        .selectFrom('catalog_postings')
        .select(['term', 'entries'])
        .where('term', 'in', chunk)
        .execute();
      for (const row of rows) {
        const list = index.lists[index.termNumber(row.term)];
        const { seqs, weights, masks } = decodePostings(row.entries);
        for (let j = 0; j < seqs.length; j++)
          if (!dropped.has(seqs[j] ?? 0)) list?.push(seqs[j] ?? 0, weights[j] ?? 0, masks[j] ?? 0);
      }
      await db.deleteFrom('catalog_postings').where('term', 'in', chunk).execute();
    }
  }
  await insertBlocks(db, store, blocksOf(index));
}

interface BlockRow {
  term: string;
  block: number;
  df: number;
  entries: Buffer;
}

/** Each term's blocks, in the order of the table's key: inserted in order, they append. */
function* blocksOf(index: PostingsBuilder): Generator<BlockRow> {
  const { terms } = index;
  const order = inTermOrder(
    terms,
    terms.map((_, number) => number),
  );
  for (const number of order) {
    const term = terms[number] ?? '';
    const list = index.lists[number];
    const df = list?.length ?? 0;
    if (list === undefined || df === 0) continue;
    const bytes = list.encode();
    for (let from = 0, block = 0; from < df; from += BLOCK, block++)
      yield {
        term,
        block,
        df,
        entries: bytes.subarray(postingBytes(from), postingBytes(Math.min(df, from + BLOCK))),
      };
  }
}

async function insertBlocks(db: Db, store: Store, rows: Iterable<BlockRow>): Promise<void> {
  if (store.sqlite !== undefined) {
    const insert = store.sqlite.prepare(
      'insert into catalog_postings (term, block, df, entries) values (?, ?, ?, ?)',
    );
    for (const row of rows) insert.run(row.term, row.block, row.df, row.entries);
    return;
  }
  // The postings of many blocks go as one binary parameter, each row a slice of it: a bytea[]
  // parameter would be sent as text, every byte written as two hex digits.
  await pipelined(
    batches(rows, STATEMENT_BYTES, (row) => row.entries.length),
    (batch) => {
      const starts: number[] = [];
      let at = 1;
      for (const row of batch) {
        starts.push(at);
        at += row.entries.length;
      }
      return sql`insert into catalog_postings (term, block, df, entries)
      select t, b, d, substring(${Buffer.concat(batch.map((row) => row.entries))}::bytea from s for n)
      from unnest(${batch.map((row) => row.term)}::text[], ${batch.map((row) => row.block)}::int[],
        ${batch.map((row) => row.df)}::int[], ${starts}::int[],
        ${batch.map((row) => row.entries.length)}::int[]) as u(t, b, d, s, n)`.execute(db);
    },
  );
}
