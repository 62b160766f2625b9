import type { Generated, Insertable, Selectable } from 'kysely';

export interface PlayersTable {
  id: string;
  username: string;
  /** Lower-cased username: names are unique ignoring case. */
  username_key: string;
  email: string;
  email_key: string;
  /** SHA-256 of the API key; the key itself is never stored. */
  api_key_hash: string;
  /** `*_cents`: integer cents, at most 2,147,483,647 (4-byte on PostgreSQL; see migration 0002). */
  credits_cents: number;
  total_market_cents: number;
  total_spent_cents: number;
  /**
   * Kept by the deal transaction for the leaderboard: total_market / total_spent in hundredths
   * (null until the first deal), the number of deals, and when the first one was made.
   */
  score_hundredths: number | null;
  deals_count: Generated<number>;
  first_deal_at: string | null;
  created_at: string;
  updated_at: string;
}

export type PlayerRow = Selectable<PlayersTable>;
export type NewPlayerRow = Insertable<PlayersTable>;
