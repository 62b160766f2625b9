import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** What a cursor holds: the position after the last item of a page, and the list it belongs to. */
export type CursorFields = Record<string, string | number | null>;

/**
 * The one codec of every `cursor` parameter: base64url of a JSON object with a version. A cursor
 * is opaque to clients, so anything else — bad base64, bad JSON, JSON that is not an object
 * (`null`, a number, a list), or an object without the fields `read` expects — is the same
 * 400 `validation_error`, never an exception further down.
 */
export function encodeCursor(fields: CursorFields): string {
  return Buffer.from(JSON.stringify({ v: 1, ...fields })).toString('base64url');
}

/**
 * A page from rows fetched with one more than `limit` (no limit: every row): the rows to
 * answer, and the cursor after the last of them when the extra row shows more follow. `list`
 * names the filters the rows were found with: `decodeCursor` refuses the cursor for others.
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number | undefined,
  positionOf: (row: Row) => CursorFields,
  list?: string | null,
): { items: Row[]; nextCursor: string | null } {
  const items = limit === undefined ? rows : rows.slice(0, limit);
  const last = items.at(-1);
  const filters: CursorFields = list === undefined ? {} : { f: list };
  return {
    items,
    nextCursor:
      rows.length > items.length && last !== undefined
        ? encodeCursor({ ...positionOf(last), ...filters })
        : null,
  };
}

/**
 * The position a cursor names, as `read` takes it from the cursor's fields; `read` returns
 * undefined for fields of another list (a missing or mistyped field). With `list`, a cursor
 * issued for other filters (`pageOf`'s `list`) is refused too.
 */
export function decodeCursor<T>(
  raw: string,
  read: (fields: Readonly<Record<string, unknown>>) => T | undefined,
  list?: string | null,
): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badCursor();
  const fields = value as Record<string, unknown>;
  const position =
    fields.v === 1 && (list === undefined || fields.f === list) ? read(fields) : undefined;
  if (position === undefined) throw badCursor();
  return position;
}

/** Lists give their next page's cursor in the body (`next_cursor`) or in a `Link` header. */
const CURSOR_PROBLEM =
  'must be the cursor this list gave for its next page (its next_cursor, or the cursor in its Link header), with the same filters';

const badCursor = () =>
  new AppError('validation_error', 'The cursor is not valid for this list.', {
    details: [{ field: 'cursor', message: CURSOR_PROBLEM }],
  });

/** Reads a field that must be a string (without NUL, which no stored text holds). */
export const textField = (fields: Readonly<Record<string, unknown>>, name: string) => {
  const value = fields[name];
  return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Reads a field that must be a row id (a lower-case UUID, as the service writes them). */
export const uuidField = (fields: Readonly<Record<string, unknown>>, name: string) => {
  const value = textField(fields, name);
  return value !== undefined && UUID.test(value) ? value : undefined;
};

/**
 * Reads a field that must be a time as the service writes it (ISO 8601 UTC with milliseconds,
 * a real date from the year 1 on): PostgreSQL refuses any other text as a timestamp (the year
 * 0 too), which must be a 400 here rather than a database error.
 */
export const timestampField = (fields: Readonly<Record<string, unknown>>, name: string) => {
  const value = textField(fields, name);
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return;
  const time = new Date(value);
  return !Number.isNaN(time.getTime()) && time.getUTCFullYear() >= 1 && time.toISOString() === value
    ? value
    : undefined;
};

/**
 * The position `{ s: created_at, i: id }` a list ordered by creation time, then id, writes in
 * its cursors; `list` as for `decodeCursor`.
 */
export function decodeCreatedPosition(
  raw: string,
  list: string | null,
): { createdAt: string; id: string } {
  return decodeCursor(
    raw,
    (fields) => {
      const createdAt = timestampField(fields, 's');
      const id = uuidField(fields, 'i');
      return createdAt === undefined || id === undefined ? undefined : { createdAt, id };
    },
    list,
  );
}

/**
 * The `Link` header (RFC 8288) to the next page of a list answered as a plain array: the same
 * request with `cursor` set. Lists whose `data` is an object carry `next_cursor` instead.
 */
export function nextPageLink(request: FastifyRequest, baseUrl: string, cursor: string): string {
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('cursor', cursor);
  return `<${baseUrl}${url.pathname}${url.search}>; rel="next"`;
}

/** The `cursor` of a `Link` header's next page, as nextPageLink writes it. */
export function cursorOfNextLink(link: string | undefined): string | undefined {
  const target = link === undefined ? undefined : /<([^>]*)>;\s*rel="next"/.exec(link)?.[1];
  return target === undefined
    ? undefined
    : (new URL(target).searchParams.get('cursor') ?? undefined);
}
