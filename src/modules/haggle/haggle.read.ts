import { decodeCursor, pageOf, timestampField, uuidField } from '../../http/cursor.js';
import { notFound } from '../../http/errors.js';
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

/** started_at and id of the last session of the previous page, for the same status filter. */
function decodePosition(raw: string, status: SessionStatus | undefined) {
  return decodeCursor(
    raw,
    (fields) => {
      const startedAt = timestampField(fields, 's');
      const id = uuidField(fields, 'i');
      if (startedAt === undefined || id === undefined) return;
      return { startedAt, id };
    },
    status ?? null,
  );
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
    after: query.cursor === undefined ? undefined : decodePosition(query.cursor, query.status),
    limit: limit + 1,
  });
  const { items, nextCursor } = pageOf(
    rows,
    limit,
    (last) => ({ s: last.started_at, i: last.id }),
    query.status ?? null,
  );
  return {
    rows: items.map((row) => ({
      ...asOf(row, at, deps.idleMinutes),
      product_name: row.product_name,
    })),
    limit,
    nextCursor,
    idleMinutes: deps.idleMinutes,
  };
}
