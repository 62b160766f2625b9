import { createHash } from 'node:crypto';
import { AppError } from '../../http/errors.js';
import type { SearchQuery } from './catalog.search.schemas.js';
import { contentWords } from './catalog.text.js';

const DEFAULT_LIMIT = 20;

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

/** The cursor of the page after the one that starts `offset` results into the search. */
export const encodeCursor = (fingerprint: string, offset: number) =>
  Buffer.from(JSON.stringify({ v: 1, o: offset, f: fingerprint } satisfies Cursor)).toString(
    'base64url',
  );

/**
 * A search query normalised: its words, its filters, and the fingerprint that names the search
 * (the cache key, and what a cursor must belong to). Throws on a cursor of another search.
 */
export function parseSearch(query: SearchQuery) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const q = query.q ?? '';
  const words = contentWords(q);
  const category = query.category?.trim() || undefined;
  const protocol = query.protocol?.trim() || undefined;
  const updatedSince =
    query.updated_since === undefined ? undefined : new Date(query.updated_since).toISOString();
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        words,
        query.kind ?? null,
        category?.toLowerCase() ?? null,
        protocol?.toLowerCase() ?? null,
        query.status ?? null,
        query.license_kind ?? null,
        updatedSince ?? null,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor, fingerprint);
  const filters = {
    kind: query.kind,
    category,
    protocol,
    status: query.status,
    license_kind: query.license_kind,
    updatedSince,
  };
  return { q, limit, words, filters, fingerprint, offset };
}
