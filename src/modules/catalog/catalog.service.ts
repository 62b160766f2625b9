import type { Store } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { catalogGroups, findListing, listingChanges, recentChanges } from './catalog.repository.js';
import {
  filterPage,
  listingsBySeq,
  matchSummary,
  type ListingFilter,
} from './catalog.search.repository.js';
import { alternativesAsked, successorsFirst } from './catalog.alternatives.js';
import { analyse } from './catalog.analysis.js';
import { cacheFor, remember, type CatalogCache } from './catalog.cache.js';
import { facetedSummary, passes, summarise } from './catalog.facets.js';
import { FEW_RESULTS } from './catalog.ranking.js';
import { categoriesLike, relatedCategories, requestTask } from './catalog.suggest.js';
import { parseSearch, searchCursor } from './catalog.query.js';
import { CATEGORIES, categoryFor } from './catalog.taxonomy.js';
import { stem } from './catalog.text.js';
import type { ListingPage } from './catalog.schemas.js';
import type { SearchQuery } from './catalog.search.schemas.js';
import { changeOf, listingOf } from './catalog.views.js';

const HISTORY_LENGTH = 10;

/** A listing by its id, in any case: ids are lower-case slugs, so `LangChain` is `langchain`. */
export async function getListing(store: Store, id: string): Promise<ListingPage> {
  const slug = id.toLowerCase();
  const row = await findListing(store.db, slug);
  if (row === undefined) throw notFound('Listing');
  const history = await listingChanges(store.db, slug, HISTORY_LENGTH);
  return { ...listingOf(row), history: history.map(changeOf) };
}

/** The taxonomy, each category with how many listings it holds. */
export async function catalogCategories(store: Store) {
  const counts = summarise(await catalogGroups(store.db)).facets.category;
  return {
    items: CATEGORIES.map((category) => ({ ...category, count: counts[category.id] ?? 0 })),
  };
}

/** The newest added and changed listings with their changes, newest first (for the feed). */
export async function recentListingChanges(store: Store, limit: number) {
  const rows = await recentChanges(store.db, limit);
  return rows.map((row) => ({
    ...changeOf(row),
    listing: listingOf({ document: row.document, created_at: '', updated_at: row.changed_at }),
  }));
}

const EMPTY_FACETS = { kind: {}, category: {}, protocol: {}, status: {}, license_kind: {} };

/**
 * What a search without words finds, counted from the groups of the catalog (or of the listings
 * changed since `updatedSince`) that pass the filters.
 */
async function filterSearch(store: Store, cache: CatalogCache, filters: ListingFilter) {
  const { updatedSince } = filters;
  const groups =
    updatedSince === undefined
      ? (cache.groups ??= await catalogGroups(store.db))
      : await matchSummary(store.db, { updatedSince }).execute();
  return facetedSummary((filter) => groups.filter((group) => passes(group, filter)), filters);
}

/**
 * A search: ranked hits with what matched, or listings by name without words; the total
 * (an estimate beyond what is ranked), facets, any correction, and, when it finds few, related
 * categories and the capability request to file.
 */
export async function searchCatalog(store: Store, query: SearchQuery, baseUrl: string) {
  const { q, limit, words, joins, filters, fingerprint, offset } = parseSearch({
    ...query,
    // An old category name, or a synonym, filters as the category it stands for.
    category: query.category === undefined ? undefined : categoryFor(query.category),
  });
  const cache = await cacheFor(store);
  // Text made only of punctuation has no words to find: nothing matches it.
  const nothing = q.trim() !== '' && words.length === 0;
  const analysis = nothing
    ? { hits: [], total: 0, total_is_estimate: false, facets: EMPTY_FACETS, corrected_query: null }
    : words.length > 0
      ? await remember(cache, `a:${fingerprint}`, async () => {
          const asked = await alternativesAsked(store, words);
          if (asked === undefined) return analyse(store, cache, words, filters, undefined, joins);
          const scope = { categories: asked.categories, except: asked.named };
          const found = await analyse(store, cache, asked.words, filters, scope);
          return { ...found, hits: successorsFirst(found.hits, asked.successors) };
        })
      : {
          hits: null,
          total_is_estimate: false,
          corrected_query: null,
          ...(await remember(cache, `f:${fingerprint}`, () => filterSearch(store, cache, filters))),
        };
  // (Text of punctuation alone shares its fingerprint with no text: its page is not cached.)
  const items = await remember(
    cache,
    `p:${fingerprint}:${offset}:${limit}:${nothing}`,
    async () => {
      if (analysis.hits === null) {
        const rows = await filterPage(store.db, store.dialect, filters, {
          offset,
          limit,
        }).execute();
        return rows.map((row) => ({ ...listingOf(row), matched: [] }));
      }
      const hits = analysis.hits.slice(offset, offset + limit);
      const rows = await listingsBySeq(
        store.db,
        hits.map((hit) => hit.seq),
      );
      return rows.map((row, i) => ({ ...listingOf(row), matched: hits[i]?.matched ?? [] }));
    },
  );
  const shown = analysis.hits === null ? analysis.total : analysis.hits.length;
  // Few fit: at most FEW_RESULTS listings match every part of the query.
  const few = words.length > 0 && 'complete' in analysis && analysis.complete <= FEW_RESULTS;
  cache.groups ??= await catalogGroups(store.db);
  return {
    items,
    count: items.length,
    total: analysis.total,
    total_is_estimate: analysis.total_is_estimate,
    limit,
    next_cursor: offset + limit < shown ? searchCursor(fingerprint, offset + limit) : null,
    facets: analysis.facets,
    corrected_query: analysis.corrected_query,
    suggestions: analysis.corrected_query === null ? [] : [analysis.corrected_query],
    related_categories:
      (filters.category === undefined
        ? undefined
        : categoriesLike(filters.category, cache.groups)) ??
      (few
        ? relatedCategories(
            words.map(stem),
            items.map((item) => item.categories),
            cache.groups,
          )
        : []),
    // Text without words says no need: no request is offered for it.
    capability_request:
      few || analysis.corrected_query !== null
        ? {
            method: 'POST' as const,
            url: `${baseUrl}/api/requests`,
            body: { kind: 'capability' as const, task: requestTask(q, filters) },
          }
        : null,
  };
}
