import type { Store } from '../../db/database.js';
import { centsToCredits } from '../../http/money.js';
import { leaderboard } from './leaderboard.repository.js';

export async function leaderboardEntries(store: Store, limit: number) {
  const rows = await leaderboard(store.db, limit);
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    total_market_value: centsToCredits(row.total_market_cents),
    total_spent: centsToCredits(row.total_spent_cents),
    score: row.score_hundredths / 100,
    items_purchased: row.items_purchased ?? 0,
    total_savings: centsToCredits(row.total_market_cents - row.total_spent_cents),
    rank: row.rank,
  }));
}
