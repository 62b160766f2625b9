import { PostgresAdapter, sql } from 'kysely';
import { compiledOnce, multiRowInsert, type Step } from '../../db/prepared.js';
import type { Db } from '../../db/schema.js';
import type { RecordedMessage } from '../../seller/history.js';
import type { ProductRow } from '../products/products.tables.js';
import type { MessageRow, SessionRow, SessionStatus } from './haggle.tables.js';

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function insertSession(db: Db, session: SessionRow): Promise<void> {
  await db.insertInto('haggle_sessions').values(session).execute();
}

const ownSession = (db: Db, ids: { sessionId: string; playerId: string }) =>
  db
    .selectFrom('haggle_sessions')
    .selectAll()
    .where('id', '=', ids.sessionId)
    .where('player_id', '=', ids.playerId);

/** The session of this player, or undefined (another player's session is as absent as an unknown one). */
export function findOwnSession(
  db: Db,
  ids: { sessionId: string; playerId: string },
): Promise<SessionRow | undefined> {
  return ownSession(db, ids).executeTakeFirst();
}

type Ids = { sessionId: string; playerId: string };

const sessionQuery = (db: Db, ids: Ids) =>
  db
    .selectFrom('haggle_sessions as s')
    .innerJoin('players as pl', 'pl.id', 's.player_id')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .selectAll('s')
    .select([
      'pl.api_key_hash as player_key_hash',
      'pl.credits_cents as player_credits_cents',
      'pl.total_market_cents as player_market_cents',
      'pl.total_spent_cents as player_spent_cents',
      'p.name as product_name',
      'p.description as product_description',
      'p.category as product_category',
      'p.market_cents as product_market_cents',
      'p.stock_quantity as product_stock_quantity',
      'p.sale_hour as product_sale_hour',
      'p.sales_this_hour as product_sales_this_hour',
      'p.sales_hour_before as product_sales_hour_before',
      'p.created_at as product_created_at',
      'p.updated_at as product_updated_at',
    ])
    .where('s.id', '=', ids.sessionId)
    .where('s.player_id', '=', ids.playerId);

const lockedSessionQuery = (db: Db, ids: Ids) =>
  sessionQuery(db, ids).$if(isPostgres(db), (query) => query.forNoKeyUpdate(['s', 'pl']));

/** PostgreSQL only: the same read with the session's messages, in order, as one JSON array. */
const withMessages = (query: ReturnType<typeof sessionQuery>) =>
  query.select(
    sql<
      RecordedMessage[]
    >`(select coalesce(json_agg(json_build_object('sender', m.sender, 'round', m.round, 'offer_cents', m.offer_cents, 'message', m.message) order by m.position), '[]'::json) from haggle_messages m where m.session_id = s.id)`.as(
      'messages',
    ),
  );

// Inside a transaction the session and its player are locked; outside one they are read as they
// stand (PostgreSQL only), and the turn's one statement checks they did not change.
const lockedSession = compiledOnce(lockedSessionQuery);
const readSession = compiledOnce(sessionQuery);
const lockedSessionWithMessages = compiledOnce((db, ids: Ids) =>
  withMessages(lockedSessionQuery(db, ids)),
);
const readSessionWithMessages = compiledOnce((db, ids: Ids) => withMessages(sessionQuery(db, ids)));

/** A session with what deciding on it needs: the player's balance and totals, and the product. */
export interface LockedSession {
  session: SessionRow;
  /** The hash of the player's current API key (under the lock, a rotation waits for it). */
  keyHash: string;
  creditsCents: number;
  /** The player's totals so far, which a deal's score is worked out from. */
  totals: { marketCents: number; spentCents: number };
  product: ProductRow;
}

/**
 * The player's session, its player's balance and totals and its product in one read. Inside a
 * transaction it locks the session and the player until the transaction ends, so two requests on
 * one session are decided one after the other, and a deal's score move is worked out from totals
 * no other deal can change meanwhile: `FOR NO KEY UPDATE OF` both on PostgreSQL (the product
 * stays unlocked; the deal's writes are conditional); SQLite's IMMEDIATE transactions already
 * lock the whole database. Outside a transaction (PostgreSQL) it locks nothing: the turn is then
 * written in one statement that fails if what it was decided on changed (`haggle.deal.ts`).
 */
export async function readOwnSession(db: Db, ids: Ids): Promise<LockedSession | undefined> {
  const [row] = (await (db.isTransaction ? lockedSession : readSession)(db, ids)).rows;
  return row === undefined ? undefined : lockedOf(row);
}

/**
 * `readOwnSession` with the session's messages so far, which an offer's answer depends on: on
 * PostgreSQL in the same statement (a round trip fewer). That statement reads the messages as of
 * its start, so if it waited for the lock while another offer on the session committed, they
 * miss that offer's round: then they are read again (a retried offer is answered from them,
 * whatever the session's status).
 */
export async function readOwnSessionWithMessages(
  db: Db,
  ids: Ids,
): Promise<(LockedSession & { messages: RecordedMessage[] }) | undefined> {
  if (!isPostgres(db)) {
    const locked = await readOwnSession(db, ids);
    return locked && { ...locked, messages: await listMessages(db, locked.session.id) };
  }
  const read = db.isTransaction ? lockedSessionWithMessages : readSessionWithMessages;
  const [row] = (await read(db, ids)).rows;
  if (row === undefined) return undefined;
  const { messages, ...rest } = row;
  const locked = lockedOf(rest);
  const { session } = locked;
  // An active session has its greeting and two messages a round; a finished one may have a note.
  const expected = 1 + 2 * session.rounds_count;
  const complete =
    session.status === 'active' ? messages.length === expected : messages.length >= expected;
  return { ...locked, messages: complete ? messages : await listMessages(db, session.id) };
}

type LockedRow = Awaited<ReturnType<typeof lockedSession>>['rows'][number];

function lockedOf(row: LockedRow): LockedSession {
  const {
    player_key_hash: keyHash,
    player_credits_cents: creditsCents,
    player_market_cents: marketCents,
    player_spent_cents: spentCents,
    product_name: name,
    product_description: description,
    product_category: category,
    product_market_cents: market_cents,
    product_stock_quantity: stock_quantity,
    product_sale_hour: sale_hour,
    product_sales_this_hour: sales_this_hour,
    product_sales_hour_before: sales_hour_before,
    product_created_at: created_at,
    product_updated_at: updated_at,
    ...session
  } = row;
  return {
    session,
    keyHash,
    creditsCents,
    totals: { marketCents, spentCents },
    product: {
      id: session.product_id,
      name,
      description,
      category,
      market_cents,
      stock_quantity,
      sale_hour,
      sales_this_hour,
      sales_hour_before,
      created_at,
      updated_at,
    },
  };
}

/**
 * The player's active session for this product, if any; inside a transaction on PostgreSQL it
 * is locked (before the player, the order every haggle transaction takes its locks in).
 */
export function findActiveSession(
  db: Db,
  ids: { playerId: string; productId: string },
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('haggle_sessions')
    .selectAll()
    .where('player_id', '=', ids.playerId)
    .where('product_id', '=', ids.productId)
    .where('status', '=', 'active')
    .$if(db.isTransaction && isPostgres(db), (query) => query.forNoKeyUpdate())
    .executeTakeFirst();
}

/** What a step of the negotiation may change in a session. */
export type SessionState = Pick<
  SessionRow,
  | 'status'
  | 'current_offer_cents'
  | 'counter_offer_cents'
  | 'rounds_count'
  | 'final_price_cents'
  | 'last_move_at'
  | 'ended_at'
>;

// Every move writes the whole state, so that one statement (compiled once) serves them all.
const sessionMove = compiledOnce(
  (db, values: SessionState & { id: string; fromRoundsCount: number }) =>
    db
      .updateTable('haggle_sessions')
      .set({
        status: values.status,
        current_offer_cents: values.current_offer_cents,
        counter_offer_cents: values.counter_offer_cents,
        rounds_count: values.rounds_count,
        final_price_cents: values.final_price_cents,
        last_move_at: values.last_move_at,
        ended_at: values.ended_at,
      })
      .where('id', '=', values.id)
      .where('status', '=', 'active')
      .where('rounds_count', '=', values.fromRoundsCount)
      .returning('id'),
);

const keyUnchanged = compiledOnce((db, values: { playerId: string; keyHash: string }) =>
  db
    .selectFrom('players')
    .select('id')
    .where('id', '=', values.playerId)
    .where('api_key_hash', '=', values.keyHash)
    .forNoKeyUpdate(),
);

/**
 * The player, locked, if the API key is still the one whose hash is `keyHash` (no row once a
 * rotation replaced it): the lock a turn decided without locks takes when it is written, so a
 * rotation either waits for the turn or makes it fail. PostgreSQL only.
 */
export function playerKeyUnchanged(values: { playerId: string; keyHash: string }): Step<{
  id: string;
}> {
  return keyUnchanged.with(values);
}

/**
 * Moves a session to `to` only from the state the caller decided on: still active and still
 * at the round it read. A concurrent request that got there first leaves it unchanged: no row.
 */
export function moveSession(from: SessionRow, to: SessionState): Step<{ id: string }> {
  return sessionMove.with({ ...to, id: from.id, fromRoundsCount: from.rounds_count });
}

const messagesOf = compiledOnce((db, values: { sessionId: string }) =>
  db
    .selectFrom('haggle_messages')
    .selectAll()
    .where('session_id', '=', values.sessionId)
    .orderBy('position'),
);

export async function listMessages(db: Db, sessionId: string): Promise<MessageRow[]> {
  return (await messagesOf(db, { sessionId })).rows;
}

/** A turn's messages (at most an offer and its answer), to run with the turn's other writes. */
export const messagesInsert = multiRowInsert<MessageRow, { id: string }>(
  ['id', 'session_id', 'position', 'sender', 'message', 'offer_cents', 'round', 'created_at'],
  2,
  (db, rows) => db.insertInto('haggle_messages').values(rows).returning('id'),
);

export async function appendMessages(
  db: Db,
  messages: [MessageRow] | [MessageRow, MessageRow],
): Promise<void> {
  const { query, values } = messagesInsert(messages);
  await query(db, values as never);
}

/**
 * A page of the player's sessions, newest first, with the product's name. `after` is the last
 * session of the previous page: ordering by (started_at, id) keeps pages stable while new
 * sessions are opened.
 */
export function listOwnSessions(
  db: Db,
  filter: {
    playerId: string;
    status: SessionStatus | undefined;
    /** Active sessions that last moved at or before this are idle: listed as expired. */
    idleCutoff: string;
    /**
     * Only sessions that ended without a deal after this (idle ones by their deadline, which
     * they passed after `idleSince`): those whose cool-down still runs.
     */
    endedAfter?: { endedAt: string; idleSince: string } | undefined;
    after: { startedAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<(SessionRow & { product_name: string })[]> {
  const { after, idleCutoff, endedAfter } = filter;
  const status = filter.status;
  return db
    .selectFrom('haggle_sessions')
    .innerJoin('products', 'products.id', 'haggle_sessions.product_id')
    .selectAll('haggle_sessions')
    .select('products.name as product_name')
    .where('haggle_sessions.player_id', '=', filter.playerId)
    .$if(status === 'active', (query) =>
      query
        .where('haggle_sessions.status', '=', 'active')
        .where('haggle_sessions.last_move_at', '>', idleCutoff),
    )
    .$if(status === 'expired', (query) =>
      query.where((eb) =>
        eb.or([
          eb('haggle_sessions.status', '=', 'expired'),
          eb.and([
            eb('haggle_sessions.status', '=', 'active'),
            eb('haggle_sessions.last_move_at', '<=', idleCutoff),
          ]),
        ]),
      ),
    )
    .$if(status !== undefined && status !== 'active' && status !== 'expired', (query) =>
      query.where('haggle_sessions.status', '=', status as SessionStatus),
    )
    .$if(endedAfter !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb.and([
            eb('haggle_sessions.status', 'in', ['rejected', 'abandoned', 'expired']),
            eb('haggle_sessions.ended_at', '>', endedAfter?.endedAt ?? ''),
          ]),
          eb.and([
            eb('haggle_sessions.status', '=', 'active'),
            eb('haggle_sessions.last_move_at', '<=', idleCutoff),
            eb('haggle_sessions.last_move_at', '>', endedAfter?.idleSince ?? ''),
          ]),
        ]),
      ),
    )
    .$if(after !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb('haggle_sessions.started_at', '<', after?.startedAt ?? ''),
          eb.and([
            eb('haggle_sessions.started_at', '=', after?.startedAt ?? ''),
            eb('haggle_sessions.id', '<', after?.id ?? ''),
          ]),
        ]),
      ),
    )
    .orderBy('haggle_sessions.started_at', 'desc')
    .orderBy('haggle_sessions.id', 'desc')
    .limit(filter.limit)
    .execute();
}
