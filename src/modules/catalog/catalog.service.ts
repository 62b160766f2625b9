import type { Store } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { catalogGroups, findListing, listingChanges, recentChanges } from './catalog.repository.js';
import { summarise } from './catalog.facets.js';
import { searchPage } from './catalog.search.repository.js';
import { analyse } from './catalog.analysis.js';
import { cacheFor, remember } from './catalog.cache.js';
import { encodeCursor, parseSearch } from './catalog.query.js';
import { CATEGORIES, categoryFor } from './catalog.taxonomy.js';
import type { ListingPage, SearchQuery } from './catalog.schemas.js';
import { changeOf, listingOf } from './catalog.views.js';

const HISTORY_LENGTH = 10;

export async function getListing(store: Store, id: string): Promise<ListingPage> {
  const row = await findListing(store.db, id);
  if (row === undefined) throw notFound('Listing');
  const history = await listingChanges(store.db, id, HISTORY_LENGTH);
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

export async function searchCatalog(store: Store, query: SearchQuery, baseUrl: string) {
  const { q, limit, words, filters, fingerprint, offset } = parseSearch({
    ...query,
    category: query.category === undefined ? undefined : categoryFor(query.category),
  });
  const capabilityRequest = {
    method: 'POST' as const,
    url: `${baseUrl}/api/requests`,
    body: { kind: 'capability' as const, task: q.trim() },
  };

  // Text made only of punctuation or query syntax has no words to find: nothing matches it.
  if (q.trim() !== '' && words.length === 0) {
    return {
      items: [],
      count: 0,
      total: 0,
      limit,
      next_cursor: null,
      facets: { kind: {}, category: {}, protocol: {}, status: {}, license_kind: {} },
      corrected_query: null,
      suggestions: [],
      capability_request: capabilityRequest,
    };
  }
  const cache = await cacheFor(store);
  const analysis = await remember(cache, `a:${fingerprint}`, () =>
    analyse(store, cache, words, filters),
  );
  const items =
    analysis.total === 0
      ? []
      : await remember(cache, `p:${fingerprint}:${offset}:${limit}`, async () =>
          (
            await searchPage(store.db, store.dialect, analysis, {
              offset,
              limit: limit + 1,
            }).execute()
          ).map(listingOf),
        );
  const page = items.slice(0, limit);
  return {
    items: page,
    count: page.length,
    total: analysis.total,
    limit,
    next_cursor: items.length > limit ? encodeCursor(fingerprint, offset + limit) : null,
    facets: analysis.facets,
    corrected_query: analysis.corrected_query,
    suggestions: analysis.suggestions,
    capability_request: analysis.total === 0 ? capabilityRequest : null,
  };
}
