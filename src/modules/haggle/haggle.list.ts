import type { Store } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { listOwnSessions } from './haggle.repository.js';
import type { SessionListQuery } from './haggle.schemas.js';
import type { SessionRow, SessionStatus } from './haggle.tables.js';

const DEFAULT_LIMIT = 20;

interface Cursor {
  v: 1;
  /** started_at and id of the last session of the previous page. */
  s: string;
  i: string;
  /** The status filter the cursor belongs to. */
  f: SessionStatus | null;
}

const badCursor = () =>
  new AppError('validation_error', 'The cursor is not valid for this list.', {
    details: [{ field: 'cursor', message: 'must be the next_cursor of the same list' }],
  });

function decodeCursor(raw: string, status: SessionStatus | undefined) {
  let cursor: Partial<Cursor>;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    throw badCursor();
  }
  if (
    cursor.v !== 1 ||
    typeof cursor.s !== 'string' ||
    typeof cursor.i !== 'string' ||
    cursor.f !== (status ?? null)
  ) {
    throw badCursor();
  }
  return { startedAt: cursor.s, id: cursor.i };
}

export interface SessionList {
  rows: (SessionRow & { product_name: string })[];
  limit: number;
  nextCursor: string | null;
}

/** The player's own sessions, newest first, a page at a time. */
export async function listSessions(
  store: Store,
  playerId: string,
  query: SessionListQuery,
): Promise<SessionList> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const rows = await listOwnSessions(store.db, {
    playerId,
    status: query.status,
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.status),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next: Cursor | null =
    rows.length > limit && last !== undefined
      ? { v: 1, s: last.started_at, i: last.id, f: query.status ?? null }
      : null;
  return {
    rows: page,
    limit,
    nextCursor: next === null ? null : Buffer.from(JSON.stringify(next)).toString('base64url'),
  };
}
