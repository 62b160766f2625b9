import { AppError, notFound } from '../../http/errors.js';
import { findProduct } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import { asOf, idleCutoff, now, type HaggleDeps } from './haggle.context.js';
import { findOwnSession, listMessages, listOwnSessions } from './haggle.repository.js';
import type { SessionListQuery } from './haggle.schemas.js';
import type { MessageRow, SessionRow, SessionStatus } from './haggle.tables.js';

/**
 * Reading and listing the player's own negotiations. An active session idle past the limit is
 * shown as expired, as it stands, whether or not the expiry has been written yet.
 */

export interface SessionRead {
  session: SessionRow;
  product: ProductRow;
  messages: MessageRow[];
  idleMinutes: number;
}

export async function readSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<SessionRead> {
  const { db } = deps.store;
  const session = await findOwnSession(db, { sessionId, playerId });
  if (session === undefined) throw notFound('Session');
  const [product, messages] = await Promise.all([
    findProduct(db, session.product_id),
    listMessages(db, session.id),
  ]);
  if (product === undefined) throw notFound('Product');
  return {
    session: asOf(session, now(), deps.idleMinutes),
    product,
    messages,
    idleMinutes: deps.idleMinutes,
  };
}

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
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  // Any JSON may come back, null and arrays included: only the shape we wrote is a cursor.
  if (typeof cursor !== 'object' || cursor === null) throw badCursor();
  const { v, s, i, f } = cursor as Partial<Cursor>;
  if (v !== 1 || typeof s !== 'string' || typeof i !== 'string' || f !== (status ?? null)) {
    throw badCursor();
  }
  return { startedAt: s, id: i };
}

export interface SessionList {
  rows: (SessionRow & { product_name: string })[];
  limit: number;
  nextCursor: string | null;
  idleMinutes: number;
}

/** The player's own sessions, newest first, a page at a time. */
export async function listSessions(
  deps: HaggleDeps,
  playerId: string,
  query: SessionListQuery,
): Promise<SessionList> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const at = now();
  const rows = await listOwnSessions(deps.store.db, {
    playerId,
    status: query.status,
    idleCutoff: idleCutoff(at, deps.idleMinutes),
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.status),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit).map((row) => ({
    ...asOf(row, at, deps.idleMinutes),
    product_name: row.product_name,
  }));
  const last = page.at(-1);
  const next: Cursor | null =
    rows.length > limit && last !== undefined
      ? { v: 1, s: last.started_at, i: last.id, f: query.status ?? null }
      : null;
  return {
    rows: page,
    limit,
    nextCursor: next === null ? null : Buffer.from(JSON.stringify(next)).toString('base64url'),
    idleMinutes: deps.idleMinutes,
  };
}
