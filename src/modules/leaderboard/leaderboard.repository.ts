import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/**
 * Score in hundredths: total_market / total_spent rounded half up to 2 decimals, in integer
 * arithmetic so both dialects and every process agree on ties.
 */
const scoreHundredths = sql<number>`(cast(total_market_cents as bigint) * 200 + total_spent_cents) / (cast(total_spent_cents as bigint) * 2)`;

function scoredPlayers(db: Db) {
  return db
    .selectFrom('players')
    .where('total_spent_cents', '>', 0)
    .select([
      'id',
      'username',
      'total_market_cents',
      'total_spent_cents',
      scoreHundredths.as('score_hundredths'),
    ]);
}

/**
 * Ranked by score; equal scores share a rank (1, 2, 2, 4). Within a rank: more market value
 * first, then whoever bought first.
 */
export function leaderboard(db: Db, limit: number) {
  return db
    .with('scored', () => scoredPlayers(db))
    .selectFrom('scored')
    .select([
      'scored.id',
      'scored.username',
      'scored.total_market_cents',
      'scored.total_spent_cents',
      'scored.score_hundredths',
      sql<number>`rank() over (order by scored.score_hundredths desc)`.as('rank'),
      (eb) =>
        eb
          .selectFrom('transactions')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('transactions.player_id', '=', 'scored.id')
          .as('items_purchased'),
      (eb) =>
        eb
          .selectFrom('transactions')
          .select((inner) => inner.fn.min('transactions.created_at').as('first'))
          .whereRef('transactions.player_id', '=', 'scored.id')
          .as('first_purchase_at'),
    ])
    .orderBy('scored.score_hundredths', 'desc')
    .orderBy('scored.total_market_cents', 'desc')
    .orderBy('first_purchase_at', 'asc')
    .orderBy('scored.id')
    .limit(limit)
    .execute();
}

/** The player's leaderboard rank and score, or null while they have bought nothing. */
export type LeaderboardRow = Awaited<ReturnType<typeof leaderboard>>[number];

export async function standingOf(
  db: Db,
  playerId: string,
): Promise<{ rank: number; scoreHundredths: number } | null> {
  const row = await db
    .with('scored', () => scoredPlayers(db))
    .selectFrom('scored as me')
    .where('me.id', '=', playerId)
    .select([
      'me.score_hundredths',
      (eb) =>
        eb
          .selectFrom('scored as better')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('better.score_hundredths', '>', 'me.score_hundredths')
          .as('better_count'),
    ])
    .executeTakeFirst();
  if (row === undefined) return null;
  return { rank: (row.better_count ?? 0) + 1, scoreHundredths: row.score_hundredths };
}
