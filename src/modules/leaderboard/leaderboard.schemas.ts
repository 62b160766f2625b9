import { Type, type Static } from 'typebox';
import { centsToCredits } from '../../http/money.js';
import { Money, Uuid } from '../../http/schemas.js';
import type { LeaderboardRow } from './leaderboard.repository.js';

export const Entry = Type.Object({
  id: Uuid('The player id.'),
  username: Type.String(),
  total_market_value: Money(),
  total_spent: Money(),
  score: Type.Number({
    description: 'total_market_value / total_spent, 2 decimals.',
    example: 1.18,
  }),
  items_purchased: Type.Integer({ minimum: 1 }),
  total_savings: Money(),
  rank: Type.Integer({ minimum: 1, description: 'Equal scores share a rank (1, 2, 2, 4).' }),
});

export const LeaderboardQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
});

export function leaderboardEntryView(row: LeaderboardRow): Static<typeof Entry> {
  return {
    id: row.id,
    username: row.username,
    total_market_value: centsToCredits(row.total_market_cents),
    total_spent: centsToCredits(row.total_spent_cents),
    score: row.score_hundredths / 100,
    items_purchased: row.items_purchased,
    total_savings: centsToCredits(row.total_market_cents - row.total_spent_cents),
    rank: row.rank,
  };
}
