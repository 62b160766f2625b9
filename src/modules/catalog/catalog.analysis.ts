// What a query means (concepts, prefixes, corrections) and its ranked matches (docs/discovery.md).

import type { Store } from '../../db/database.js';
import { catalogGroups } from './catalog.repository.js';
import {
  allTerms,
  listingFacts,
  termBlocks,
  termsStartingWith,
  type ListingFacts,
  type ListingFilter,
} from './catalog.search.repository.js';
import type { CatalogCache } from './catalog.cache.js';
import { summarise, type Facets } from './catalog.facets.js';
import {
  decodePostings,
  exactTerm,
  fieldsOf,
  statusWeight,
  type Field,
  type PostingList,
} from './catalog.index.js';
import { closeEnough, elementKey, stem } from './catalog.text.js';
import { queryPlan, type QueryGroup } from './catalog.concepts.js';

/** Listings ranked, filtered, counted and faceted at most; beyond, totals are estimates. */
export const MAX_RANKED = 500;
/** With several groups, a match must score this share of the best match's score. */
const RELATIVE_CUTOFF = 0.25;
/** Indexed terms a last word may stand for as a prefix (the most frequent ones). */
const PREFIX_TERMS = 8;
/** A prefix or a corrected word weighs a little less than a word as typed. */
const PREFIX_WEIGHT = 0.9;

export interface Hit {
  seq: number;
  matched: { term: string; fields: Field[] }[];
}

export interface Analysis {
  hits: Hit[];
  total: number;
  total_is_estimate: boolean;
  facets: Facets;
  corrected_query: string | null;
}

/** The word of `terms` nearest to `word` (closeEnough), if any; ties by the word. */
function nearest(terms: readonly string[], word: string): string | undefined {
  let best: { term: string; score: number } | undefined;
  for (const term of terms) {
    const score = closeEnough(word, term);
    if (score !== undefined && (best === undefined || score > best.score)) best = { term, score };
  }
  return best?.term;
}

/**
 * Words the index does not know: the last one stands for the terms it starts (search as you
 * type); any other, or a last one that starts none, is replaced by the nearest catalog word, if
 * one is near enough. Known words, and words in a concept phrase, are never replaced.
 */
async function resolveUnknown(
  store: Store,
  cache: CatalogCache,
  groups: QueryGroup[],
  lists: Map<string, { df: number; list: PostingList }>,
): Promise<boolean> {
  let corrected = false;
  for (const [i, group] of groups.entries()) {
    const [typed] = group.alternatives;
    if (group.alternatives.length > 1 || typed === undefined || typed.terms.length > 1) continue;
    const term = typed.terms[0] ?? '';
    if (lists.has(term)) continue;
    if (i === groups.length - 1) {
      const starting = await termsStartingWith(store.db, group.words, 200);
      const terms = starting
        .filter((row) => !row.term.startsWith('='))
        .sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1))
        .slice(0, PREFIX_TERMS)
        .map((row) => row.term);
      if (terms.length > 0) {
        for (const prefixed of terms)
          group.alternatives.push({
            label: group.words,
            terms: [prefixed],
            weight: PREFIX_WEIGHT,
            kind: 'prefix',
          });
        continue;
      }
    }
    if (!/^[a-z]+$/.test(group.words)) continue;
    cache.terms ??= await allTerms(store.db);
    const fix = nearest(cache.terms, group.words);
    if (fix === undefined) continue;
    group.corrected = fix;
    group.alternatives = [{ label: fix, terms: [stem(fix)], weight: 1, kind: 'typed' }];
    corrected = true;
  }
  return corrected;
}

async function readPostings(
  store: Store,
  terms: Iterable<string>,
  into: Map<string, { df: number; list: PostingList }>,
) {
  const missing = [...new Set(terms)].filter((term) => !into.has(term));
  for (const row of await termBlocks(store.db, missing))
    into.set(row.term, { df: row.df, list: decodePostings(row.entries) });
}

const passes = (facts: ListingFacts, filter: ListingFilter) =>
  (filter.kind === undefined || facts.kind === filter.kind) &&
  (filter.category === undefined || facts.categories_key.includes(elementKey([filter.category]))) &&
  (filter.protocol === undefined || facts.protocols_key.includes(elementKey([filter.protocol]))) &&
  (filter.updatedSince === undefined || facts.updated_at > filter.updatedSince);

/**
 * Ranks the listings for query words with BM25F over the postings index, in this process, so
 * that both databases give the same order: each group of the query (a word, or a concept phrase
 * with its equivalents) scores its best alternative; not every group has to match. Only each
 * term's first block is read, so the cost does not grow with the number of matches.
 */
export async function analyse(
  store: Store,
  cache: CatalogCache,
  words: string[],
  filter: ListingFilter,
): Promise<Analysis> {
  const groups = queryPlan(words);
  const lists = new Map<string, { df: number; list: PostingList }>();
  const exact = exactTerm(words.map(stem).join(' '));
  await readPostings(
    store,
    [exact, ...groups.flatMap((g) => g.alternatives.flatMap((a) => a.terms))],
    lists,
  );
  const corrected = await resolveUnknown(store, cache, groups, lists);
  const correctedExact = exactTerm(
    groups.map((g) => (g.corrected ?? g.words).split(' ').map(stem).join(' ')).join(' '),
  );
  await readPostings(
    store,
    [correctedExact, ...groups.flatMap((g) => g.alternatives.flatMap((a) => a.terms))],
    lists,
  );

  cache.groups ??= await catalogGroups(store.db);
  const size = cache.groups.reduce((sum, group) => sum + group.n, 0);
  const idf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  let truncated = false;
  let widest = 0;
  const scores = new Map<number, { score: number; status: number; matched: Hit['matched'] }>();
  for (const group of groups) {
    const best = new Map<number, { value: number; label: string; mask: number }>();
    // An equivalent weighs what the words as typed would (their idf), times how well it matches.
    const typedIdf = (group.alternatives[0]?.terms ?? []).reduce(
      (sum, term) => sum + idf(lists.get(term)?.df ?? 0),
      0,
    );
    for (const alternative of group.alternatives) {
      const equivalent = alternative.kind === 'equivalent';
      const sums = new Map<number, { sum: number; count: number; mask: number }>();
      for (const term of alternative.terms) {
        const found = lists.get(term);
        if (found === undefined) continue;
        if (found.df > found.list.seqs.length) truncated = true;
        widest = Math.max(widest, found.df);
        const weight = equivalent ? typedIdf / alternative.terms.length : idf(found.df);
        found.list.seqs.forEach((seq, j) => {
          const sum = sums.get(seq) ?? { sum: 0, count: 0, mask: 0 };
          sum.sum += weight * (found.list.weights[j] ?? 0);
          sum.count += 1;
          sum.mask |= found.list.masks[j] ?? 0;
          sums.set(seq, sum);
        });
      }
      // The words as typed may match in part; an equivalent phrase only as a whole.
      for (const [seq, { sum, count, mask }] of sums) {
        if (equivalent && count < alternative.terms.length) continue;
        const value = sum * alternative.weight;
        const before = best.get(seq);
        if (before === undefined || value > before.value)
          best.set(seq, { value, label: alternative.label, mask });
      }
    }
    for (const [seq, { value, label, mask }] of best) {
      const entry = scores.get(seq) ?? { score: 0, status: mask, matched: [] };
      entry.score += value;
      entry.matched.push({ term: label, fields: fieldsOf(mask & 0xff) });
      scores.set(seq, entry);
    }
  }
  // A listing whose name, alias or id is the whole query comes first.
  const named = new Set(
    [exact, correctedExact].flatMap((term) => lists.get(term)?.list.seqs ?? []),
  );
  let ranked = [...scores].map(([seq, { score, status, matched }]) => ({
    seq,
    named: named.has(seq) ? 1 : 0,
    score: score * statusWeight(status),
    matched,
  }));
  const top = ranked.reduce((max, hit) => Math.max(max, hit.score), 0);
  if (groups.length > 1)
    ranked = ranked.filter((hit) => hit.named === 1 || hit.score >= RELATIVE_CUTOFF * top);
  const byRank = (a: (typeof ranked)[number], b: (typeof ranked)[number]) =>
    b.named - a.named || b.score - a.score;
  ranked.sort((a, b) => byRank(a, b) || a.seq - b.seq);
  const estimate = truncated || ranked.length > MAX_RANKED;
  const matches = ranked.length;
  ranked = ranked.slice(0, MAX_RANKED);
  const facts = new Map(
    (
      await listingFacts(
        store.db,
        store.dialect,
        ranked.map((hit) => hit.seq),
      )
    ).map((f) => [f.seq, f]),
  );
  const kept = ranked.filter((hit) => {
    const row = facts.get(hit.seq);
    return row !== undefined && passes(row, filter);
  });
  const order = (hit: { seq: number }) => facts.get(hit.seq) as ListingFacts;
  kept.sort(
    (a, b) =>
      byRank(a, b) ||
      (order(a).name_key < order(b).name_key
        ? -1
        : order(a).name_key > order(b).name_key
          ? 1
          : 0) ||
      (order(a).id < order(b).id ? -1 : 1),
  );
  const { facets } = summarise(kept.map((hit) => ({ ...order(hit), n: 1 })));
  const share = ranked.length === 0 ? 0 : kept.length / ranked.length;
  return {
    hits: kept.map(({ seq, matched }) => ({ seq, matched })),
    total: estimate
      ? Math.max(kept.length, Math.round(share * Math.max(matches, widest)))
      : kept.length,
    total_is_estimate: estimate,
    facets,
    corrected_query: corrected
      ? groups.map((group) => group.corrected ?? group.words).join(' ')
      : null,
  };
}
