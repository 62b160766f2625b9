import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../../db/database.js';
import { AppError, notFound } from '../../http/errors.js';
import {
  allTerms,
  anyMatch,
  catalogSummary,
  catalogVersion,
  closestTermPg,
  deleteListings,
  findListing,
  insertChanges,
  listingChanges,
  listingDocuments,
  listingHashes,
  loadedFileHash,
  lockCatalog,
  matchSummaryRows,
  recentChanges,
  replaceTerms,
  saveListings,
  searchPage,
  setCatalogSummary,
  setCatalogVersion,
  setLoadedFileHash,
  type ListingFilter,
  type ListingRow,
  type NewChange,
} from './catalog.repository.js';
import type {
  Listing,
  ListingChange,
  ListingEntry,
  ListingPage,
  SearchQuery,
} from './catalog.schemas.js';
import {
  contentWords,
  elementKey,
  indexStems,
  nameKey,
  queryGroups,
  searchWords,
  stem,
  trigramSimilarity,
  TYPO_SIMILARITY,
  type Group,
} from './catalog.text.js';

const DEFAULT_LIMIT = 20;
const HISTORY_LENGTH = 10;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Part of every content hash: bump it when the indexed words are derived differently, so the
 * next start rewrites every listing.
 */
const INDEX_FORMAT = 'search-1';

/** The hash of a catalog file's bytes, as stored once the file is loaded. */
export const catalogFileHash = (bytes: Buffer): string =>
  createHash('sha256').update(INDEX_FORMAT).update(bytes).digest('hex');

/** The file hash given to the last sync, or undefined after a sync of other entries. */
export async function loadedCatalogHash(store: Store): Promise<string | undefined> {
  return (await loadedFileHash(store.db)) ?? undefined;
}

function rowOf(entry: ListingEntry, document: string, hash: string, now: string): ListingRow {
  const aliases = entry.aliases ?? [];
  return {
    id: entry.id,
    kind: entry.kind,
    document,
    content_hash: hash,
    categories_key: elementKey(entry.categories),
    protocols_key: elementKey(entry.protocols),
    name_key: searchWords(entry.name).join(' '),
    names_key: `|${[entry.name, ...aliases].map(nameKey).join('|')}|`,
    name_words: indexStems(entry.name),
    alias_words: indexStems(aliases.join(' ')),
    tag_words: indexStems([entry.kind, ...entry.categories].join(' ')),
    body_words: indexStems(
      [entry.summary, entry.description, ...entry.protocols, ...entry.limitations].join(' '),
    ),
    created_at: now,
    updated_at: now,
  };
}

/** The words of names and aliases that a misspelt query word may be corrected to. */
function termsOf(entries: readonly ListingEntry[]): string[] {
  const terms = new Set<string>();
  for (const entry of entries) {
    for (const text of [entry.name, ...(entry.aliases ?? [])]) {
      for (const word of contentWords(text)) if (word.length >= 3) terms.add(word);
    }
  }
  return [...terms].sort();
}

function changedFields(before: string | undefined, after: ListingEntry): string[] {
  const old = (before === undefined ? {} : JSON.parse(before)) as Record<string, unknown>;
  const now = after as unknown as Record<string, unknown>;
  return [...new Set([...Object.keys(old), ...Object.keys(now)])]
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .sort();
}

/**
 * Makes the database's catalog equal to `entries`: new and changed listings are written (their
 * `updated_at` moves, a change is recorded), unchanged ones are left alone, listings no longer in
 * the data are removed. Only what changed is written, in batches. Idempotent, and safe when
 * several processes start at once. `fileHash` records which file the catalog now holds.
 */
export async function syncCatalog(
  store: Store,
  entries: readonly ListingEntry[],
  fileHash: string | null = null,
): Promise<void> {
  const now = new Date().toISOString();
  await store.db.transaction().execute(async (trx) => {
    await lockCatalog(trx, store.dialect);
    await setLoadedFileHash(trx, fileHash);
    const known = await listingHashes(trx);
    const rows: ListingRow[] = [];
    const written: ListingEntry[] = [];
    for (const entry of entries) {
      const document = JSON.stringify(entry);
      const hash = sha256(INDEX_FORMAT + document);
      if (known.get(entry.id) === hash) continue;
      rows.push(rowOf(entry, document, hash, now));
      written.push(entry);
    }
    const kept = new Set(entries.map((entry) => entry.id));
    const removed = [...known.keys()].filter((id) => !kept.has(id));
    if (rows.length === 0 && removed.length === 0) return;

    const before = await listingDocuments(
      trx,
      written.filter((entry) => known.has(entry.id)).map((entry) => entry.id),
    );
    const changes: NewChange[] = written.map((entry) => ({
      listing_id: entry.id,
      change: known.has(entry.id) ? 'changed' : 'added',
      fields: JSON.stringify(changedFields(before.get(entry.id), entry)),
      changed_at: now,
    }));
    for (const id of removed) {
      changes.push({ listing_id: id, change: 'removed', fields: '[]', changed_at: now });
    }
    await saveListings(trx, store.dialect, rows, new Set(known.keys()));
    await deleteListings(trx, store.dialect, removed);
    await insertChanges(trx, changes);
    await replaceTerms(trx, termsOf(entries));
    // The answer to "everything", which would otherwise count the whole catalog.
    await setCatalogSummary(
      trx,
      JSON.stringify(
        summarise(
          entries.map((entry) => ({
            kind: entry.kind,
            categories_key: elementKey(entry.categories),
            protocols_key: elementKey(entry.protocols),
            n: 1,
          })),
        ),
      ),
    );
    await setCatalogVersion(trx, randomUUID());
  });
}

function listingOf(row: { document: string; created_at: string; updated_at: string }): Listing {
  const entry = JSON.parse(row.document) as ListingEntry;
  return {
    ...entry,
    aliases: entry.aliases ?? [],
    sources: entry.sources ?? [entry.provenance.source_url],
    checked_at: entry.checked_at ?? entry.provenance.retrieved_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function changeOf(row: {
  id: number;
  listing_id: string;
  change: ListingChange['change'];
  fields: string;
  changed_at: string;
}): ListingChange {
  return {
    id: row.id,
    listing_id: row.listing_id,
    change: row.change,
    fields: JSON.parse(row.fields) as string[],
    changed_at: row.changed_at,
  };
}

export async function getListing(store: Store, id: string): Promise<ListingPage> {
  const row = await findListing(store.db, id);
  if (row === undefined) throw notFound('Listing');
  const history = await listingChanges(store.db, id, HISTORY_LENGTH);
  return { ...listingOf(row), history: history.map(changeOf) };
}

/** The newest added and changed listings with their changes, newest first (for the feed). */
export async function recentListingChanges(store: Store, limit: number) {
  const rows = await recentChanges(store.db, limit);
  return rows.map((row) => ({
    ...changeOf(row),
    listing: listingOf({ document: row.document, created_at: '', updated_at: row.changed_at }),
  }));
}

// ---------------------------------------------------------------------------------------------
// Search answers are cached per process, keyed by the catalog version that every sync changes:
// the catalog changes only when the data file does, so a repeated search (every page after the
// first, the same query from many clients) costs one indexed read of the version.

// At most ~50 listings per entry: a few tens of megabytes when full.
const CACHE_ENTRIES = 500;

interface CatalogCache {
  version: string;
  answers: Map<string, unknown>;
  terms?: string[];
}
const caches = new WeakMap<Store, CatalogCache>();

async function cacheFor(store: Store): Promise<CatalogCache> {
  const version = await catalogVersion(store.db);
  let cache = caches.get(store);
  if (cache?.version !== version) {
    cache = { version, answers: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

async function remember<T>(cache: CatalogCache, key: string, compute: () => Promise<T>) {
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

interface Cursor {
  v: 1;
  /** How many results earlier pages returned. */
  o: number;
  /** Which search the cursor belongs to. */
  f: string;
}

const badCursor = () =>
  new AppError('validation_error', 'The cursor is not valid for this search.', {
    details: [{ field: 'cursor', message: 'must be the next_cursor of the same search' }],
  });

function decodeCursor(raw: string, fingerprint: string): number {
  let cursor: Partial<Cursor> | null;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor> | null;
  } catch {
    throw badCursor();
  }
  if (
    cursor?.v !== 1 ||
    cursor.f !== fingerprint ||
    !Number.isSafeInteger(cursor.o) ||
    (cursor.o ?? -1) < 0
  ) {
    throw badCursor();
  }
  return cursor.o ?? 0;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

type Facets = Record<'kind' | 'category' | 'protocol', Record<string, number>>;

function summarise(
  rows: { kind: string; categories_key: string; protocols_key: string; n: number }[],
) {
  const facets: Facets = { kind: {}, category: {}, protocol: {} };
  let total = 0;
  for (const row of rows) {
    const { n } = row;
    const add = (counts: Record<string, number>, value: string) => {
      if (value !== '') counts[value] = (counts[value] ?? 0) + n;
    };
    total += n;
    add(facets.kind, row.kind);
    for (const value of row.categories_key.split('|')) add(facets.category, value);
    for (const value of row.protocols_key.split('|')) add(facets.protocol, value);
  }
  const sorted = (counts: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)),
    );
  return {
    total,
    facets: {
      kind: sorted(facets.kind),
      category: sorted(facets.category),
      protocol: sorted(facets.protocol),
    },
  };
}

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

interface Analysis {
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
async function analyse(
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
  const everything =
    words.length === 0 &&
    [filters.kind, filters.category, filters.protocol, filters.updatedSince].every(
      (value) => value === undefined,
    )
      ? await catalogSummary(store.db)
      : undefined;
  const found =
    everything === undefined
      ? summarise(await matchSummaryRows(store.db, store.dialect, first))
      : (JSON.parse(everything) as ReturnType<typeof summarise>);
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
    const fixed = summarise(await matchSummaryRows(store.db, store.dialect, second));
    const query = corrected.join(' ');
    if (fixed.total > 0)
      return { ...second, ...fixed, corrected_query: query, suggestions: [query] };
  }
  // Still nothing: leave one word out. The narrowest query that finds something is answered.
  if (corrected.length > 1) {
    const relaxed: { query: string; list: string[]; total: number }[] = [];
    for (const i of corrected.keys()) {
      const list = corrected.filter((_, j) => j !== i);
      const { total } = summarise(await matchSummaryRows(store.db, store.dialect, plan(list)));
      if (total > 0) relaxed.push({ query: list.join(' '), list, total });
    }
    relaxed.sort((a, b) => a.total - b.total);
    const [best] = relaxed;
    if (best !== undefined) {
      const third = plan(best.list);
      const found = summarise(await matchSummaryRows(store.db, store.dialect, third));
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

export async function searchCatalog(store: Store, query: SearchQuery, baseUrl: string) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const q = query.q ?? '';
  const words = contentWords(q);
  const category = query.category?.trim() || undefined;
  const protocol = query.protocol?.trim() || undefined;
  const updatedSince =
    query.updated_since === undefined ? undefined : new Date(query.updated_since).toISOString();
  const fingerprint = sha256(
    JSON.stringify([
      words,
      query.kind ?? null,
      category?.toLowerCase() ?? null,
      protocol?.toLowerCase() ?? null,
      updatedSince ?? null,
    ]),
  ).slice(0, 16);
  const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor, fingerprint);
  const filters = { kind: query.kind, category, protocol, updatedSince };
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
      facets: { kind: {}, category: {}, protocol: {} },
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
          (await searchPage(store.db, store.dialect, analysis, { offset, limit: limit + 1 })).map(
            listingOf,
          ),
        );
  const page = items.slice(0, limit);
  return {
    items: page,
    count: page.length,
    total: analysis.total,
    limit,
    next_cursor:
      items.length > limit ? encodeCursor({ v: 1, o: offset + limit, f: fingerprint }) : null,
    facets: analysis.facets,
    corrected_query: analysis.corrected_query,
    suggestions: analysis.suggestions,
    capability_request: analysis.total === 0 ? capabilityRequest : null,
  };
}
