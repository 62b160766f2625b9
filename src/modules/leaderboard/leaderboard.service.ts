import type { Static } from 'typebox';
import type { Store } from '../../db/database.js';
import { leaderboard } from './leaderboard.repository.js';
import { leaderboardEntryView, type Entry } from './leaderboard.schemas.js';

export async function leaderboardEntries(
  store: Store,
  limit: number,
): Promise<Static<typeof Entry>[]> {
  const rows = await leaderboard(store.db, limit);
  // The rows are the top of the full order, so a row's rank is its position unless it ties the
  // row before it (equal scores share a rank: 1, 2, 2, 4).
  let rank = 0;
  return rows.map((row, index) => {
    if (index === 0 || row.score_hundredths !== rows[index - 1]?.score_hundredths) rank = index + 1;
    return leaderboardEntryView({ ...row, rank });
  });
}
