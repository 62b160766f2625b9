import type { Store } from '../../db/database.js';
import { catalogVersion } from './catalog.repository.js';
import type { MatchGroup } from './catalog.facets.js';

// Search answers are cached per process, keyed by the catalog version that every sync changes:
// the catalog changes only when the data file does, so a repeated search (every page after the
// first, the same query from many clients) costs one indexed read of the version.

// At most ~50 listings per entry: a few tens of megabytes when full.
const CACHE_ENTRIES = 500;

export interface CatalogCache {
  version: string;
  answers: Map<string, unknown>;
  terms?: string[];
  groups?: MatchGroup[];
}
const caches = new WeakMap<Store, CatalogCache>();

export async function cacheFor(store: Store): Promise<CatalogCache> {
  const version = await catalogVersion(store.db);
  let cache = caches.get(store);
  if (cache?.version !== version) {
    cache = { version, answers: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

export async function remember<T>(cache: CatalogCache, key: string, compute: () => Promise<T>) {
  if (cache.answers.has(key)) {
    const value = cache.answers.get(key) as T;
    cache.answers.delete(key); // most recently used last
    cache.answers.set(key, value);
    return value;
  }
  const value = await compute();
  cache.answers.set(key, value);
  if (cache.answers.size > CACHE_ENTRIES) {
    const oldest = cache.answers.keys().next().value;
    if (oldest !== undefined) cache.answers.delete(oldest);
  }
  return value;
}

/** Empties this process's search cache (the benchmark measures searches that miss it). */
export function forgetSearches(store: Store): void {
  caches.delete(store);
}
