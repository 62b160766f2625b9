import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/schema.js';

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

/** Before any cool-down: the value a fresh row holds. */
const NO_COOLDOWN = '1970-01-01T00:00:00.000Z';

/**
 * Until when this player may not open a negotiation on this product (a past time when free).
 * The upsert takes the row's lock (PostgreSQL) until the transaction ends, so a negotiation
 * ending at the same moment in another process waits, and the two cannot both miss each other.
 */
export async function lockCooldown(
  db: Db,
  ids: { playerId: string; productId: string },
): Promise<string> {
  const row = await db
    .insertInto('haggle_cooldowns')
    .values({ player_id: ids.playerId, product_id: ids.productId, until: NO_COOLDOWN })
    .onConflict((conflict) =>
      conflict
        .columns(['player_id', 'product_id'])
        .doUpdateSet((update) => ({ until: update.ref('haggle_cooldowns.until') })),
    )
    .returning('until')
    .executeTakeFirstOrThrow();
  return row.until;
}

/** Starts a cool-down that runs until `until`. */
export async function startCooldown(
  db: Db,
  ids: { playerId: string; productId: string },
  until: string,
): Promise<void> {
  await db
    .insertInto('haggle_cooldowns')
    .values({ player_id: ids.playerId, product_id: ids.productId, until })
    .onConflict((conflict) => conflict.columns(['player_id', 'product_id']).doUpdateSet({ until }))
    .execute();
}
