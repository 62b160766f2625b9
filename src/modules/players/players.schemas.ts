import { Type, type Static } from 'typebox';
import { centsToCredits } from '../../http/money.js';
import { Money, PATTERN_MESSAGE, Timestamp, Uuid } from '../../http/schemas.js';
import type { PlayerRow } from './players.tables.js';

export const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_.-]+$',
  [PATTERN_MESSAGE]:
    'may contain only letters A to Z (without accents), digits, underscores, dots and hyphens',
  description: '3–32 letters A–Z (without accents), digits, `_`, `.` or `-`; unique ignoring case.',
  example: 'haggler_42',
});

export const Email = Type.String({
  maxLength: 254,
  format: 'email',
  description: 'A valid e-mail address; unique ignoring case.',
  example: 'haggler42@example.com',
});

export const RegisterBody = Type.Object({ username: Username, email: Email });

export const Player = Type.Object({
  id: Uuid(),
  username: Type.String({ example: 'haggler_42' }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'Shown only to the player themself; null for everyone else.',
    example: 'haggler42@example.com',
  }),
  credits: Money('Credits left to spend; starts at 100 and is never topped up.'),
  total_market_value: Money('Sum of the market prices of everything bought.'),
  total_spent: Money('Sum of the prices paid.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

export const NewPlayer = Type.Object({
  ...Player.properties,
  api_key: Type.String({
    pattern: '^hg_[0-9a-f]{48}$',
    description: 'Shown once, now: save it. Send it as `Authorization: Bearer <api_key>`.',
    example: 'hg_3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f90a1b2c3d4e',
  }),
});

export const PlayerParams = Type.Object({ id: Uuid('The player id.') });

export const PlayerQuery = Type.Object({
  username: Type.Optional(
    Type.String({ maxLength: 32, description: 'Exact username (ignoring case).' }),
  ),
  email: Type.Optional(
    Type.String({ maxLength: 254, description: 'Exact e-mail address (ignoring case).' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 1000,
      description:
        'At most this many, oldest first. When more follow, the `Link` header names the next page (`rel="next"`).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 300,
      description: 'The `cursor` of the previous page’s `Link: …; rel="next"` header.',
    }),
  ),
});

export const PlayerStats = Type.Object({
  player_id: Uuid(),
  username: Type.String(),
  credits: Money(),
  total_market_value: Money(),
  total_spent: Money(),
  score: Type.Number({
    description: 'total_market_value / total_spent, 2 decimals; 0 until something is bought.',
    example: 1.18,
  }),
  rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'Position on the leaderboard; null until the player has bought something.',
  }),
  total_transactions: Type.Integer({ minimum: 0 }),
  total_savings: Money('Sum of market price minus price paid over all deals.'),
  active_sessions: Type.Integer({ minimum: 0 }),
  completed_sessions: Type.Integer({
    minimum: 0,
    description: 'Sessions accepted, rejected, abandoned or expired.',
  }),
  best_deal_percentage: Type.Number({
    description:
      'Largest discount achieved, % of market price, 2 decimals; negative if every deal was above market, 0 with no deals.',
    example: 14.5,
  }),
});

export type PlayerView = Static<typeof Player>;

/** What a player record shows to `viewerId`: the e-mail only to its owner, never key material. */
export function playerView(
  row: Omit<PlayerRow, 'score_hundredths' | 'deals_count' | 'first_deal_at'>,
  showEmail: boolean,
): PlayerView {
  return {
    id: row.id,
    username: row.username,
    email: showEmail ? row.email : null,
    credits: centsToCredits(row.credits_cents),
    total_market_value: centsToCredits(row.total_market_cents),
    total_spent: centsToCredits(row.total_spent_cents),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A player's statistics as the service finds them: cents and hundredths. */
export interface PlayerStatsFacts {
  player: Pick<
    PlayerRow,
    'id' | 'username' | 'credits_cents' | 'total_market_cents' | 'total_spent_cents'
  >;
  standing: { rank: number; scoreHundredths: number } | null;
  deals: number;
  sessions: { active: number; finished: number };
  bestDealHundredths: number;
}

export function statsView(stats: PlayerStatsFacts): Static<typeof PlayerStats> {
  const { player, standing } = stats;
  return {
    player_id: player.id,
    username: player.username,
    credits: centsToCredits(player.credits_cents),
    total_market_value: centsToCredits(player.total_market_cents),
    total_spent: centsToCredits(player.total_spent_cents),
    score: standing === null ? 0 : standing.scoreHundredths / 100,
    rank: standing?.rank ?? null,
    total_transactions: stats.deals,
    total_savings: centsToCredits(player.total_market_cents - player.total_spent_cents),
    active_sessions: stats.sessions.active,
    completed_sessions: stats.sessions.finished,
    best_deal_percentage: stats.bestDealHundredths / 100,
  };
}
