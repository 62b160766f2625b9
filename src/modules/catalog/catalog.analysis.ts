// What a search finds (counts, facets); typo correction or a relaxed query when nothing.

import type { Store } from '../../db/database.js';
import { catalogGroups } from './catalog.repository.js';
import {
  allTerms,
  anyMatch,
  closestTermPg,
  matchSummary,
  type ListingFilter,
} from './catalog.search.repository.js';
import type { CatalogCache } from './catalog.cache.js';
import { passes, summarise, type Facets } from './catalog.facets.js';
import {
  queryGroups,
  stem,
  trigramSimilarity,
  TYPO_SIMILARITY,
  type Group,
} from './catalog.text.js';

/** The name or alias word closest to `word` by trigram similarity (pg_trgm's measure on both). */
async function closestTerm(
  store: Store,
  cache: CatalogCache,
  word: string,
): Promise<string | undefined> {
  if (store.dialect === 'postgres') return closestTermPg(store.db, word);
  cache.terms ??= await allTerms(store.db);
  let best: { term: string; similarity: number } | undefined;
  for (const term of cache.terms) {
    const similarity = trigramSimilarity(term, word);
    if (
      similarity >= TYPO_SIMILARITY &&
      (best === undefined ||
        similarity > best.similarity ||
        (similarity === best.similarity && term < best.term))
    ) {
      best = { term, similarity };
    }
  }
  return best?.term;
}

export interface Analysis {
  groups: Group[];
  exactKey: string;
  total: number;
  facets: Facets;
  corrected_query: string | null;
  suggestions: string[];
}

/**
 * What a query means and how many listings it finds. A query that finds nothing is tried again
 * with each word no listing contains replaced by the closest word of a name or alias (typo
 * tolerance); if that finds something, its results are answered. Otherwise, with several words,
 * the queries with one word left out are tried, and the narrowest that finds something is
 * answered. Either way `corrected_query` says which query the results are for.
 */
export async function analyse(
  store: Store,
  cache: CatalogCache,
  words: string[],
  filters: Omit<ListingFilter, 'groups' | 'exactKey'>,
): Promise<Analysis> {
  const plan = (list: string[]) => ({
    groups: queryGroups(list),
    exactKey: list.map(stem).join(' '),
    ...filters,
  });
  const first = plan(words);
  // Filters alone: counted from the catalog's groups (a few per kind, category and protocol),
  // whatever the catalog's size; words or a date need the listings themselves.
  let found;
  if (words.length === 0 && filters.updatedSince === undefined) {
    cache.groups ??= await catalogGroups(store.db);
    found = summarise(cache.groups.filter((group) => passes(group, filters)));
  } else {
    found = summarise(await matchSummary(store.db, store.dialect, first).execute());
  }
  const answer = { ...first, ...found, corrected_query: null, suggestions: [] as string[] };
  if (found.total > 0 || words.length === 0) return answer;

  const corrected: string[] = [];
  for (const [i, word] of words.entries()) {
    const alone: Group[] = [[[{ stem: stem(word), prefix: i === words.length - 1 ? word : null }]]];
    const known = word.length < 4 || (await anyMatch(store.db, store.dialect, alone));
    corrected.push(known ? word : ((await closestTerm(store, cache, word)) ?? word));
  }
  if (corrected.some((word, i) => word !== words[i])) {
    const second = plan(corrected);
    const fixed = summarise(await matchSummary(store.db, store.dialect, second).execute());
    const query = corrected.join(' ');
    if (fixed.total > 0)
      return { ...second, ...fixed, corrected_query: query, suggestions: [query] };
  }
  // Still nothing: leave one word out. The narrowest query that finds something is answered.
  if (corrected.length > 1) {
    const relaxed: { query: string; list: string[]; total: number }[] = [];
    for (const i of corrected.keys()) {
      const list = corrected.filter((_, j) => j !== i);
      const { total } = summarise(
        await matchSummary(store.db, store.dialect, plan(list)).execute(),
      );
      if (total > 0) relaxed.push({ query: list.join(' '), list, total });
    }
    relaxed.sort((a, b) => a.total - b.total);
    const [best] = relaxed;
    if (best !== undefined) {
      const third = plan(best.list);
      const found = summarise(await matchSummary(store.db, store.dialect, third).execute());
      return {
        ...third,
        ...found,
        corrected_query: best.query,
        suggestions: relaxed.slice(0, 3).map((candidate) => candidate.query),
      };
    }
  }
  return answer;
}
