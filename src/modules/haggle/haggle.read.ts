import { decodeCursor, pageOf, timestampField, uuidField } from '../../http/cursor.js';
import { notFound } from '../../http/errors.js';
import { findProduct } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import {
  addMinutes,
  asOf,
  idleCutoff,
  now,
  type HaggleDeps,
  type SessionClock,
} from './haggle.context.js';
import { findOwnSession, listMessages, listOwnSessions } from './haggle.repository.js';
import type { SessionListQuery } from './haggle.schemas.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

/**
 * Reading and listing the player's own negotiations. An active session idle past the limit is
 * shown as expired, as it stands, whether or not the expiry has been written yet.
 */

export interface SessionRead {
  session: SessionRow;
  product: ProductRow;
  messages: MessageRow[];
  clock: SessionClock;
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
    clock: deps,
  };
}

const DEFAULT_LIMIT = 20;

/** The filters a cursor is issued for: the status, and `+cooling_down` when only those. */
const listOf = (query: SessionListQuery): string | null =>
  query.cooling_down === true ? `${query.status ?? ''}+cooling_down` : (query.status ?? null);

/** started_at and id of the last session of the previous page, for the same filters. */
function decodePosition(raw: string, list: string | null) {
  return decodeCursor(
    raw,
    (fields) => {
      const startedAt = timestampField(fields, 's');
      const id = uuidField(fields, 'i');
      if (startedAt === undefined || id === undefined) return;
      return { startedAt, id };
    },
    list,
  );
}

export interface SessionList {
  rows: (SessionRow & { product_name: string })[];
  limit: number;
  nextCursor: string | null;
  clock: SessionClock;
}

/**
 * A session whose cool-down still runs at `at` ended (as `cooldownEnd` says) after `at` less the
 * cool-down; an idle one ends at its deadline, so it last moved after that less the idle limit.
 */
function cooledSince(at: string, clock: SessionClock) {
  const endedAt = addMinutes(at, -clock.cooldownMinutes);
  return { endedAt, idleSince: addMinutes(endedAt, -clock.idleMinutes) };
}

/** The player's own sessions, newest first, a page at a time. */
export async function listSessions(
  deps: HaggleDeps,
  playerId: string,
  query: SessionListQuery,
): Promise<SessionList> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const at = now();
  const list = listOf(query);
  const after = query.cursor === undefined ? undefined : decodePosition(query.cursor, list);
  // Without a cool-down, no negotiation blocks its product.
  const rows =
    query.cooling_down === true && deps.cooldownMinutes === 0
      ? []
      : await listOwnSessions(deps.store.db, {
          playerId,
          status: query.status,
          idleCutoff: idleCutoff(at, deps.idleMinutes),
          endedAfter: query.cooling_down === true ? cooledSince(at, deps) : undefined,
          after,
          limit: limit + 1,
        });
  const { items, nextCursor } = pageOf(
    rows,
    limit,
    (last) => ({ s: last.started_at, i: last.id }),
    list,
  );
  return {
    rows: items.map((row) => ({
      ...asOf(row, at, deps.idleMinutes),
      product_name: row.product_name,
    })),
    limit,
    nextCursor,
    clock: deps,
  };
}
