import { compiledOnce, type Step } from '../../db/prepared.js';
import type { Db } from '../../db/schema.js';

/**
 * Score in hundredths: total_market / total_spent rounded half up to 2 decimals, in integer
 * arithmetic so both dialects and every process agree on ties. The deal transaction stores it
 * (see `chargeForDeal`); this is the same formula for values it has not stored.
 */
export function scoreHundredths(marketCents: number, spentCents: number): number | null {
  return spentCents > 0 ? Math.floor((marketCents * 200 + spentCents) / (spentCents * 2)) : null;
}

/**
 * The best players, in leaderboard order: score, then more market value, then whoever bought
 * first. Served by the `players_ranking` index, so the cost does not grow with the players.
 */
const bestPlayers = compiledOnce((db, values: { limit: number }) =>
  db
    .selectFrom('players')
    .select([
      'id',
      'username',
      'total_market_cents',
      'total_spent_cents',
      'deals_count as items_purchased',
      (eb) => eb.ref('score_hundredths').$notNull().as('score_hundredths'),
    ])
    .where('score_hundredths', 'is not', null)
    .orderBy('score_hundredths', 'desc')
    .orderBy('total_market_cents', 'desc')
    .orderBy('first_deal_at')
    .orderBy('id')
    .limit(values.limit),
);

export async function leaderboard(db: Db, limit: number) {
  return (await bestPlayers(db, { limit })).rows;
}

/** A leaderboard row with its rank (equal scores share one). */
export type LeaderboardRow = Awaited<ReturnType<typeof leaderboard>>[number] & { rank: number };

/** Rows per score in the per-score counts (migration 0012). */
const SCORE_SHARDS = 8;

/**
 * What moves one player from score `from` (null: not ranked yet) to score `to` in the per-score
 * counts: a step of the deal's writes (`runTogether`), none when the score stays. Each player's
 * counts go to one of a score's shards, so concurrent deals ending on the same score rarely wait
 * for each other's row. Rows in ascending score order, so two deals moving players between the
 * same two scores lock them in the same order.
 */
export function scoreMoves(playerId: string, from: number | null, to: number): Step<unknown>[] {
  if (from === to) return [];
  const shard = playerId.charCodeAt(playerId.length - 1) % SCORE_SHARDS;
  const changes = [{ score_hundredths: to, players: 1 }];
  if (from !== null) changes.push({ score_hundredths: from, players: -1 });
  changes.sort((a, b) => a.score_hundredths - b.score_hundredths);
  const values: Record<string, number> = { shard };
  changes.forEach((change, i) => {
    values[`score${i}`] = change.score_hundredths;
    values[`players${i}`] = change.players;
  });
  return [(addToScores[changes.length - 1] as (typeof addToScores)[number]).with(values)];
}

/** The per-score upserts of one and of two scores. */
const addToScores = [1, 2].map((count) =>
  compiledOnce((db, values: Record<string, number>) =>
    db
      .insertInto('leaderboard_scores')
      .values(
        Array.from({ length: count }, (_, i) => ({
          score_hundredths: values[`score${i}`] as number,
          shard: values.shard as number,
          players: values[`players${i}`] as number,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['score_hundredths', 'shard']).doUpdateSet((eb) => ({
          players: eb('leaderboard_scores.players', '+', eb.ref('excluded.players')),
        })),
      )
      .returning('players'),
  ),
);
