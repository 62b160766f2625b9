import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../../http/cursor.js';
import { AppError, validationHeadline } from '../../http/errors.js';
import type { SearchQuery } from './catalog.search.schemas.js';
import { contentWords, joiningWords } from './catalog.text.js';

const DEFAULT_LIMIT = 20;

/** The offset of the page a search's cursor continues from; a cursor of another search is a 400. */
const offsetOf = (raw: string, fingerprint: string): number =>
  decodeCursor(raw, (fields) => {
    const offset = fields.o;
    return fields.f === fingerprint && Number.isSafeInteger(offset) && (offset as number) >= 0
      ? (offset as number)
      : undefined;
  });

/**
 * `updated_since` as a time to compare with: what the date-time format lets through but names no
 * instant either database takes (a leap second, `…T23:59:60Z`; the year 0) is refused here.
 */
function instantOf(text: string): string {
  const time = new Date(text);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1) {
    const details = [
      { field: 'updated_since', message: 'must be a real date and time, from the year 1 on' },
    ];
    throw new AppError('validation_error', validationHeadline(details), { details });
  }
  return time.toISOString();
}

/** The cursor of the page after the one that starts `offset` results into the search. */
export const searchCursor = (fingerprint: string, offset: number) =>
  encodeCursor({ o: offset, f: fingerprint });

/**
 * A search query normalised: its words, its filters, and the fingerprint that names the search
 * (the cache key, and what a cursor must belong to). Throws on a cursor of another search.
 */
export function parseSearch(query: SearchQuery) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const q = query.q ?? '';
  const words = contentWords(q);
  // "text to image" and "text from images" have the same words, joined otherwise.
  const joins = joiningWords(q);
  const category = query.category?.trim() || undefined;
  const protocol = query.protocol?.trim() || undefined;
  const updatedSince =
    query.updated_since === undefined ? undefined : instantOf(query.updated_since);
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        words,
        joins,
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
  const offset = query.cursor === undefined ? 0 : offsetOf(query.cursor, fingerprint);
  const filters = {
    kind: query.kind,
    category,
    protocol,
    status: query.status,
    license_kind: query.license_kind,
    updatedSince,
  };
  return { q, limit, words, joins, filters, fingerprint, offset };
}
