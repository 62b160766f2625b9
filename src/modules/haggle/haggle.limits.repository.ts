import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/schema.js';
import type { SessionRow } from './haggle.tables.js';

/**
 * The queries behind the limits on starting a negotiation: the player's lock and the cap on
 * active negotiations, earlier deals (repeat purchases), and the cool-down.
 */

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The player's credits, locking the player until the transaction ends (PostgreSQL; SQLite's
 * IMMEDIATE transactions lock the database), so that a player's starts run one at a time and
 * the cap on active negotiations holds across processes. Undefined for an unknown player.
 */
export async function lockPlayerCredits(
  trx: Transaction<Database>,
  playerId: string,
): Promise<{ creditsCents: number; keyHash: string } | undefined> {
  const row = await trx
    .selectFrom('players')
    .select(['credits_cents', 'api_key_hash'])
    .where('id', '=', playerId)
    .$if(isPostgres(trx), (query) => query.forNoKeyUpdate())
    .executeTakeFirst();
  return row && { creditsCents: row.credits_cents, keyHash: row.api_key_hash };
}

/**
 * How many of the player's active sessions moved after `cutoff` (the others are idle: expired),
 * and the earliest last move among them (null when none).
 */
export async function liveSessions(
  db: Db,
  playerId: string,
  cutoff: string,
): Promise<{ count: number; earliestMove: string | null }> {
  const row = await db
    .selectFrom('haggle_sessions')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('live'),
      eb.fn.min<string | null>('last_move_at').as('earliest'),
    ])
    .where('player_id', '=', playerId)
    .where('status', '=', 'active')
    .where('last_move_at', '>', cutoff)
    .executeTakeFirstOrThrow();
  return { count: Number(row.live), earliestMove: row.earliest };
}

/** Deals this player has made on this product. */
export async function countDeals(
  db: Db,
  ids: { playerId: string; productId: string },
): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number | string>().as('deals'))
    .where('player_id', '=', ids.playerId)
    .where('product_id', '=', ids.productId)
    .executeTakeFirstOrThrow();
  return Number(row.deals);
}

/**
 * The player's last negotiation for this product that ended without a deal: its end starts the
 * cool-down (`cooldownEnd`). Read after the player's lock, which every ending takes too, so an
 * ending in another process has committed before this read or waits for this transaction.
 */
export async function lastEndedWithoutDeal(
  db: Db,
  ids: { playerId: string; productId: string },
): Promise<Pick<SessionRow, 'status' | 'ended_at'> | undefined> {
  return db
    .selectFrom('haggle_sessions')
    .select(['status', 'ended_at'])
    .where('player_id', '=', ids.playerId)
    .where('product_id', '=', ids.productId)
    .where('status', 'in', ['rejected', 'abandoned', 'expired'])
    .orderBy('ended_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
