import { createHash } from 'node:crypto';
import type { Store } from '../../db/database.js';
import { AppError, notFound } from '../../http/errors.js';
import {
  deleteListings,
  findListing,
  listingHashes,
  saveListing,
  searchListings,
} from './catalog.repository.js';
import type { Listing, ListingEntry, SearchQuery } from './catalog.schemas.js';
import { elementKey, searchWords } from './catalog.text.js';

const DEFAULT_LIMIT = 20;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Makes the database's catalog equal to `entries`: new and changed listings are written (their
 * `updated_at` moves), unchanged ones are left alone, listings no longer in the data are
 * removed. Idempotent, and safe when several processes start at once.
 */
export async function syncCatalog(store: Store, entries: readonly ListingEntry[]): Promise<void> {
  const now = new Date().toISOString();
  await store.db.transaction().execute(async (trx) => {
    const known = await listingHashes(trx);
    for (const entry of entries) {
      const document = JSON.stringify(entry);
      const hash = sha256(document);
      if (known.get(entry.id) === hash) continue;
      await saveListing(trx, store.dialect, {
        id: entry.id,
        name: entry.name,
        kind: entry.kind,
        document,
        content_hash: hash,
        categories_key: elementKey(entry.categories),
        protocols_key: elementKey(entry.protocols),
        name_words: searchWords(entry.name).join(' '),
        body_words: searchWords(
          [
            entry.summary,
            entry.description,
            ...entry.categories,
            ...entry.protocols,
            ...entry.limitations,
          ].join(' '),
        ).join(' '),
        updated_at: now,
      });
    }
    const kept = new Set(entries.map((entry) => entry.id));
    await deleteListings(
      trx,
      store.dialect,
      [...known.keys()].filter((id) => !kept.has(id)),
    );
  });
}

function listingOf(row: { document: string; updated_at: string }): Listing {
  return { ...(JSON.parse(row.document) as ListingEntry), updated_at: row.updated_at };
}

export async function getListing(store: Store, id: string): Promise<Listing> {
  const row = await findListing(store.db, id);
  if (row === undefined) throw notFound('Listing');
  return listingOf(row);
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

export async function searchCatalog(store: Store, query: SearchQuery) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const words = searchWords(query.q ?? '');
  const category = query.category?.trim();
  const protocol = query.protocol?.trim();
  const fingerprint = sha256(
    JSON.stringify([
      words,
      query.kind ?? null,
      category?.toLowerCase() ?? null,
      protocol?.toLowerCase() ?? null,
    ]),
  ).slice(0, 16);
  const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor, fingerprint);

  // Text made only of punctuation or query syntax has no words to find: nothing matches it.
  const nothingToFind = (query.q ?? '').trim() !== '' && words.length === 0;
  const rows = nothingToFind
    ? []
    : await searchListings(store.db, store.dialect, {
        words,
        kind: query.kind,
        category: category === '' ? undefined : category,
        protocol: protocol === '' ? undefined : protocol,
        offset,
        limit: limit + 1,
      });
  const items = rows.slice(0, limit).map(listingOf);
  return {
    items,
    count: items.length,
    limit,
    next_cursor:
      rows.length > limit ? encodeCursor({ v: 1, o: offset + limit, f: fingerprint }) : null,
  };
}
