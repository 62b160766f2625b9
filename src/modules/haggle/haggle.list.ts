import type { Store } from '../../db/database.js';
import { decodeCursor, pageOf, textField } from '../../http/cursor.js';
import { listOwnSessions } from './haggle.repository.js';
import type { SessionListQuery } from './haggle.schemas.js';
import type { SessionRow, SessionStatus } from './haggle.tables.js';

const DEFAULT_LIMIT = 20;

/** started_at and id of the last session of the previous page, for the same status filter. */
function decodePosition(raw: string, status: SessionStatus | undefined) {
  return decodeCursor(raw, (fields) => {
    const startedAt = textField(fields, 's');
    const id = textField(fields, 'i');
    if (startedAt === undefined || id === undefined || fields.f !== (status ?? null)) return;
    return { startedAt, id };
  });
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
    after: query.cursor === undefined ? undefined : decodePosition(query.cursor, query.status),
    limit: limit + 1,
  });
  const { items, nextCursor } = pageOf(rows, limit, (last) => ({
    s: last.started_at,
    i: last.id,
    f: query.status ?? null,
  }));
  return { rows: items, limit, nextCursor };
}
