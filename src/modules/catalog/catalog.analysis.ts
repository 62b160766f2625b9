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
import { facetedSummary, groupsOf, passes, type Facets } from './catalog.facets.js';
import { exactTerm, K1 } from './catalog.index.js';
import { decodePostings } from './catalog.posting-list.js';
import { rank, type TermPostings } from './catalog.rank.js';
import { FIELDS, MAX_RANKED, type Field } from './catalog.ranking.js';
import { nearest, stem } from './catalog.text.js';
import { queryPlan, type QueryGroup } from './catalog.concepts.js';

/** How many times MAX_RANKED candidates a search with filters tests against them. */
const FILTER_FACTOR = 10;
/** With several groups, a match must score this share of the best match's score. */
const RELATIVE_CUTOFF = 0.25;
/** Indexed terms a last word may stand for as a prefix (the most frequent ones). */
const PREFIX_TERMS = 8;
/** Listings' names, aliases or ids a last word may stand for as a prefix (the shortest ones). */
const PREFIX_NAMES = 8;
/** What a name of one word weighs where it is found (catalog.index.ts), against a whole name's 1. */
const NAME_FOUND = (() => {
  const { weight, length, b } = FIELDS.name;
  const frequency = weight / (1 - b + b / length);
  return (frequency * (K1 + 1)) / (K1 + frequency);
})();
/** A last word in fewer listings than this also stands for the words it starts ("vec"). */
const PREFIX_RARE = 3;
/** A prefix weighs a little less than a word as typed. */
const PREFIX_WEIGHT = 0.9;
/**
 * The completions of a word the catalog knows weigh half: the listings with the word as typed
 * come first ("lang": LangChain, LangSmith, LangGraph, then Langfuse).
 */
const KNOWN_PREFIX_WEIGHT = 0.5;

export interface Hit {
  seq: number;
  matched: { term: string; fields: Field[] }[];
}

export interface Analysis {
  hits: Hit[];
  total: number;
  total_is_estimate: boolean;
  /** How many of the ranked hits match every part of the query. */
  complete: number;
  facets: Facets;
  corrected_query: string | null;
}

/**
 * The last word also stands for the terms it starts (search as you type; see `widened`). Any
 * other word the index does not know, or an unknown last one that starts none, is replaced by
 * the nearest catalog word, if one is near enough. Known words, and words in a concept phrase,
 * are never replaced.
 */
async function resolveUnknown(
  store: Store,
  cache: CatalogCache,
  groups: QueryGroup[],
  lists: Map<string, TermPostings>,
): Promise<boolean> {
  let corrected = false;
  for (const [i, group] of groups.entries()) {
    const [typed] = group.alternatives;
    if (group.alternatives.length > 1 || typed === undefined || typed.terms.length > 1) continue;
    const term = typed.terms[0] ?? '';
    const known = lists.get(term);
    const last = i === groups.length - 1;
    // A known last word stands for longer words when it may be one being typed: four letters or
    // more ("lang"), or a word of very few listings ("vec"); not a short word in many ("go", "c").
    const widened =
      last && (known === undefined || group.words.length >= 4 || known.df < PREFIX_RARE);
    if (known !== undefined && !widened) continue;
    if (last) {
      const starting = await termsStartingWith(store.db, group.words, 200);
      // And the names of one word it starts (a listing's name, alias or id), rare as they are
      // ("comp": Composio, among components and compute), the shortest of the first 50 in
      // alphabetical order: a name is what is most often typed into a search box. A name of
      // several words is found by its words.
      const names = await termsStartingWith(store.db, exactTerm(group.words), 50, {
        oneWord: true,
      });
      const words = starting
        .filter((row) => row.term !== term)
        .sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1))
        .slice(0, PREFIX_TERMS);
      const started = names
        .filter((row) => row.term !== exactTerm(term))
        .sort((a, b) => a.term.length - b.term.length || (a.term < b.term ? -1 : 1))
        .slice(0, PREFIX_NAMES);
      const weight = known === undefined ? PREFIX_WEIGHT : KNOWN_PREFIX_WEIGHT;
      for (const { term: prefixed } of words)
        group.alternatives.push({ label: group.words, terms: [prefixed], weight, kind: 'prefix' });
      // A whole name's postings weigh 1: started, it counts as a name of one word found.
      for (const { term: name } of started)
        group.alternatives.push({
          label: group.words,
          terms: [name],
          weight: weight * NAME_FOUND,
          kind: 'prefix',
        });
      if (words.length + started.length > 0) continue;
    }
    if (known !== undefined || !/^[a-z]+$/.test(group.words)) continue;
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
  into: Map<string, TermPostings>,
) {
  const missing = [...new Set(terms)].filter((term) => !into.has(term));
  for (const row of await termBlocks(store.db, store.dialect, missing))
    into.set(row.term, { df: row.df, ...decodePostings(row.entries) });
}

/** Where alternatives to listings are searched for: among other listings of their categories. */
export interface Scope {
  categories: readonly string[];
  except: readonly number[];
}

/** The filters' test, as a search without words makes it (and its SQL), and the scope's. */
const passesAll = (facts: ListingFacts, filter: ListingFilter, scope: Scope | undefined) =>
  passes(facts, filter) &&
  (filter.updatedSince === undefined || facts.updated_at > filter.updatedSince) &&
  (scope === undefined ||
    (!scope.except.includes(facts.seq) &&
      scope.categories.some((category) => facts.categories_key.includes(`|${category}|`))));

/**
 * Ranks the listings for query words with BM25F over the postings index, in this process, so
 * that both databases give the same order: each group of the query (a word, or a concept phrase
 * with its equivalents) scores its best alternative; not every group has to match. Only each
 * term's first block is read, so the cost does not grow with the number of matches. `joins`
 * are what joins the words as typed (`joiningWords`), which tells concept phrases apart.
 */
export async function analyse(
  store: Store,
  cache: CatalogCache,
  words: string[],
  filter: ListingFilter,
  scope?: Scope,
  joins?: readonly string[],
): Promise<Analysis> {
  const groups = queryPlan(words, joins);
  const lists = new Map<string, TermPostings>();
  const exact = exactTerm(words.map(stem).join(' '));
  await readPostings(
    store,
    [
      exact,
      ...groups.flatMap((g) => g.alternatives.flatMap((a) => [...a.terms, ...(a.together ?? [])])),
    ],
    lists,
  );
  const corrected = await resolveUnknown(store, cache, groups, lists);
  const correctedExact = exactTerm(
    groups.map((g) => (g.corrected ?? g.words).split(' ').map(stem).join(' ')).join(' '),
  );
  await readPostings(
    store,
    [
      correctedExact,
      ...groups.flatMap((g) => g.alternatives.flatMap((a) => [...a.terms, ...(a.together ?? [])])),
    ],
    lists,
  );

  cache.groups ??= await catalogGroups(store.db);
  const size = cache.groups.reduce((sum, group) => sum + group.n, 0);
  const exactLists = [exact, correctedExact].flatMap((term) => lists.get(term) ?? []);
  const scored = rank(groups, lists, exactLists, size);
  let ranked = scored.candidates;
  const top = ranked.reduce((max, hit) => Math.max(max, hit.score), 0);
  if (groups.length > 1)
    ranked = ranked.filter((hit) => hit.named === 1 || hit.score >= RELATIVE_CUTOFF * top);
  const byRank = (a: (typeof ranked)[number], b: (typeof ranked)[number]) =>
    b.named - a.named || b.score - a.score;
  ranked.sort((a, b) => byRank(a, b) || a.seq - b.seq);
  // With filters, more of the best candidates are tested, so that a narrow filter still finds
  // its matches among them; the best MAX_RANKED that pass are kept.
  const filtered =
    scope !== undefined || Object.values(filter).some((value) => value !== undefined);
  const tested = filtered ? MAX_RANKED * FILTER_FACTOR : MAX_RANKED;
  const matches = ranked.length;
  ranked = ranked.slice(0, tested);
  const facts = new Map(
    (
      await listingFacts(
        store.db,
        store.dialect,
        ranked.map((hit) => hit.seq),
      )
    ).map((f) => [f.seq, f]),
  );
  const passing = ranked.filter((hit) => {
    const row = facts.get(hit.seq);
    return row !== undefined && passesAll(row, filter, scope);
  });
  const estimate = scored.truncated || matches > tested || passing.length > MAX_RANKED;
  const kept = passing.slice(0, MAX_RANKED);
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
  // Counted per combination of kind, categories, protocols, status and licence kind: each facet
  // over the best that pass every filter but its own.
  const { facets } = facetedSummary(
    (only) =>
      groupsOf(
        ranked
          .filter((hit) => {
            const row = facts.get(hit.seq);
            return row !== undefined && passesAll(row, only, scope);
          })
          .slice(0, MAX_RANKED)
          .map(order),
      ),
    filter,
  );
  const share = ranked.length === 0 ? 0 : passing.length / ranked.length;
  const matched = scored.matchedOf(kept.map((hit) => hit.seq));
  return {
    hits: kept.map(({ seq }) => ({ seq, matched: matched.get(seq) ?? [] })),
    total: estimate
      ? Math.max(passing.length, Math.round(share * Math.max(matches, scored.widest)))
      : kept.length,
    total_is_estimate: estimate,
    complete: kept.filter((hit) => hit.groups === groups.length).length,
    facets,
    corrected_query: corrected
      ? groups.map((group) => group.corrected ?? group.words).join(' ')
      : null,
  };
}
