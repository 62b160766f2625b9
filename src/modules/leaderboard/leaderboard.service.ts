import type { Store } from '../../db/database.js';
import { leaderboard, type LeaderboardRow } from './leaderboard.repository.js';

export function leaderboardEntries(store: Store, limit: number): Promise<LeaderboardRow[]> {
  return leaderboard(store.db, limit);
}
