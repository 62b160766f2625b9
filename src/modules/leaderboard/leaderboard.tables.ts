import type { ColumnType } from 'kysely';

/**
 * How many ranked players hold each score: a rank is 1 + the players on higher scores. A score's
 * count is the sum of its rows, one per shard (migration 0012); a single row may be negative
 * (a player counted in shard 0 before shards existed, moved off that score since).
 */
export interface LeaderboardScoresTable {
  score_hundredths: number;
  shard: ColumnType<number, number | undefined, number>;
  players: number;
}
