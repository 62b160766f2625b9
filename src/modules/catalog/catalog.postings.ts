// Keeps the search index (catalog_postings) equal to the listings at every catalog sync.

import { sql } from 'kysely';
import type { Store } from '../../db/database.js';
import type { Db } from '../../db/schema.js';
import {
  decodePostings,
  emptyList,
  encodePostings,
  listingPostings,
  type PostingList,
} from './catalog.index.js';
import type { ListingEntry } from './catalog.schemas.js';

/**
 * Postings per stored block. A query reads only each term's first block: the BLOCK listings
 * the term weighs most in. A term in more listings than that makes the total an estimate.
 */
export const BLOCK = 500;

/** Terms per statement when reading or deleting. */
const TERMS = 200;

export interface IndexedListing {
  entry: ListingEntry;
  seq: number;
}

/**
 * Updates the postings of every term that `written` (new and changed listings, as they are now)
 * or `stale` (changed and removed listings, as they were) contain: the stale listings' postings
 * are dropped, the written ones' added, and each such term's list is stored again in order.
 */
export async function updatePostings(
  db: Db,
  store: Store,
  written: readonly IndexedListing[],
  stale: readonly IndexedListing[],
): Promise<void> {
  const lists = new Map<string, PostingList>();
  const dropped = new Set<number>();
  for (const { entry, seq } of stale) {
    dropped.add(seq);
    for (const term of listingPostings(entry).keys())
      if (!lists.has(term)) lists.set(term, emptyList());
  }
  const added = new Map<string, PostingList>();
  for (const { entry, seq } of written) {
    dropped.add(seq);
    for (const [term, { weight, mask }] of listingPostings(entry)) {
      let list = added.get(term);
      if (list === undefined) added.set(term, (list = emptyList()));
      list.seqs.push(seq);
      list.weights.push(weight);
      list.masks.push(mask);
      if (!lists.has(term)) lists.set(term, emptyList());
    }
  }
  const terms = [...lists.keys()];
  for (let i = 0; i < terms.length; i += TERMS) {
    const rows = await db
      .selectFrom('catalog_postings')
      .select(['term', 'entries'])
      .where('term', 'in', terms.slice(i, i + TERMS))
      .orderBy('term')
      .orderBy('block')
      .execute();
    for (const row of rows) {
      const kept = lists.get(row.term) ?? emptyList();
      const old = decodePostings(row.entries);
      old.seqs.forEach((seq, j) => {
        if (dropped.has(seq)) return;
        kept.seqs.push(seq);
        kept.weights.push(old.weights[j] as number);
        kept.masks.push(old.masks[j] as number);
      });
    }
  }
  for (let i = 0; i < terms.length; i += TERMS) {
    await db
      .deleteFrom('catalog_postings')
      .where('term', 'in', terms.slice(i, i + TERMS))
      .execute();
  }
  const rows = (function* () {
    for (const [term, list] of lists) {
      const more = added.get(term);
      // (A loop, not push(...): a common term's new postings may exceed an argument list.)
      for (let i = 0; i < (more?.seqs.length ?? 0); i++) {
        list.seqs.push(more?.seqs[i] ?? 0);
        list.weights.push(more?.weights[i] ?? 0);
        list.masks.push(more?.masks[i] ?? 0);
      }
      const df = list.seqs.length;
      if (df === 0) continue;
      const sorted = ordered(list);
      for (let from = 0, block = 0; from < df; from += BLOCK, block++)
        yield {
          term,
          block,
          df,
          entries: encodePostings(sorted, from, Math.min(df, from + BLOCK)),
        };
    }
  })();
  await insertBlocks(db, store, rows);
}

/** Heaviest first, then by seq: the order a query reads a term's postings in. */
function ordered(list: PostingList): PostingList {
  const order = list.seqs.map((_, i) => i);
  order.sort(
    (a, b) =>
      (list.weights[b] ?? 0) - (list.weights[a] ?? 0) || (list.seqs[a] ?? 0) - (list.seqs[b] ?? 0),
  );
  return {
    seqs: order.map((i) => list.seqs[i] ?? 0),
    weights: order.map((i) => list.weights[i] ?? 0),
    masks: order.map((i) => list.masks[i] ?? 0),
  };
}

interface BlockRow {
  term: string;
  block: number;
  df: number;
  entries: Buffer;
}

async function insertBlocks(db: Db, store: Store, rows: Iterable<BlockRow>): Promise<void> {
  if (store.sqlite !== undefined) {
    const insert = store.sqlite.prepare(
      'insert into catalog_postings (term, block, df, entries) values (?, ?, ?, ?)',
    );
    for (const row of rows) insert.run(row.term, row.block, row.df, row.entries);
    return;
  }
  let batch: BlockRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await sql`insert into catalog_postings (term, block, df, entries)
      select * from unnest(${batch.map((row) => row.term)}::text[], ${batch.map((row) => row.block)}::int[],
        ${batch.map((row) => row.df)}::int[], ${batch.map((row) => row.entries)}::bytea[])`.execute(
      db,
    );
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length === 500) await flush();
  }
  await flush();
}
