// A search for alternatives to a listing ("alternative to Pinecone", "airflow alternatives").

import type { Store } from '../../db/database.js';
import { exactTerm } from './catalog.index.js';
import { decodePostings } from './catalog.posting-list.js';
import { listingsBySeq, termBlocks } from './catalog.search.repository.js';
import { nameKey, stem } from './catalog.text.js';

/** Words that ask for something else in place of what they name (stop words already left out). */
const ASKING = new Set([
  'alternative',
  'alternatives',
  'replacement',
  'replacements',
  'substitute',
  'substitutes',
  'competitor',
  'competitors',
  'instead',
]);

/** The longest name tried next to the asking word, in words. */
const NAME_WORDS = 3;

export interface Alternatives {
  /** The query's other words, then the words of the named listings' categories. */
  words: string[];
  /** The named listings' categories: an alternative has one of them. */
  categories: string[];
  /** The named listings, left out of the results. */
  named: number[];
  /** Their successors, first among the results where they are. */
  successors: number[];
}

/**
 * What a query that asks for alternatives to a listing of the catalog means: the listings that
 * share one of its categories, but not it, ranked by the query's other words ("self hosted")
 * and the words of those categories; a successor first. The listing is named by whole words
 * after the asking word ("alternative to X", "replacement for X", "instead of X"), or else
 * before it ("X alternatives"), as its name, an alias or its id. Undefined when the query asks
 * for none, names no listing, or is itself one's name: it is then searched as it is.
 */
export async function alternativesAsked(
  store: Store,
  words: readonly string[],
): Promise<Alternatives | undefined> {
  const at = words.findIndex((word) => ASKING.has(word));
  if (at === -1) return undefined;
  // A query that is itself a listing's name, alias or id ("Postman alternative", an alias of
  // Bruno) names that listing, which comes first as any exact name does.
  const [itself] = await termBlocks(store.db, store.dialect, [
    exactTerm(words.map(stem).join(' ')),
  ]);
  if (itself !== undefined) return undefined;
  const spans: [number, number][] = [];
  for (let size = NAME_WORDS; size >= 1; size--)
    if (at + size < words.length) spans.push([at + 1, at + 1 + size]);
  for (let size = NAME_WORDS; size >= 1; size--) if (at - size >= 0) spans.push([at - size, at]);
  for (const [from, to] of spans) {
    const key = nameKey(words.slice(from, to).join(' '));
    const [block] = await termBlocks(store.db, store.dialect, [exactTerm(key)]);
    if (block === undefined) continue;
    const named = [...decodePostings(block.entries).seqs];
    const listings = (await listingsBySeq(store.db, named)).map(
      (row) => JSON.parse(row.document) as { categories: string[]; successor?: string | null },
    );
    const categories = [...new Set(listings.flatMap((listing) => listing.categories))];
    const successors = listings.flatMap((listing) => listing.successor ?? []);
    const rest = words.filter((_, i) => i !== at && (i < from || i >= to));
    return {
      words: [...new Set([...rest, ...categories.flatMap((category) => category.split('-'))])],
      categories,
      named,
      successors:
        successors.length === 0
          ? []
          : (
              await store.db
                .selectFrom('catalog_listings')
                .select('seq')
                .where('id', 'in', successors)
                .execute()
            ).map((row) => row.seq),
    };
  }
  return undefined;
}

/** Hits with the named listings' successors first, the rest in their order. */
export function successorsFirst<Hit extends { seq: number }>(
  hits: readonly Hit[],
  successors: readonly number[],
): Hit[] {
  const first = (hit: Hit) => successors.includes(hit.seq);
  return [...hits.filter(first), ...hits.filter((hit) => !first(hit))];
}
