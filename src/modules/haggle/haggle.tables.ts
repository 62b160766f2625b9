import type { Selectable } from 'kysely';

export type SessionStatus = 'active' | 'accepted' | 'rejected' | 'abandoned' | 'expired';

export interface HaggleSessionsTable {
  id: string;
  player_id: string;
  product_id: string;
  status: SessionStatus;
  /** `*_cents`: integer cents, at most 2,147,483,647 (4-byte on PostgreSQL; see migration 0002). */
  current_offer_cents: number | null;
  counter_offer_cents: number | null;
  rounds_count: number;
  max_rounds: number;
  final_price_cents: number | null;
  /** The seller's private terms for this session; never leave the server. */
  floor_cents: number;
  opening_ask_cents: number;
  started_at: string;
  /** When the negotiation last moved (its start, then each offer): idle expiry counts from here. */
  last_move_at: string;
  ended_at: string | null;
}

export interface HaggleMessagesTable {
  id: string;
  session_id: string;
  /** Order within the session: 0 is the seller's greeting. */
  position: number;
  sender: 'seller' | 'player';
  message: string;
  /** `*_cents`: integer cents, at most 2,147,483,647 (4-byte on PostgreSQL; see migration 0002). */
  offer_cents: number | null;
  round: number;
  created_at: string;
}

export type SessionRow = Selectable<HaggleSessionsTable>;
export type MessageRow = Selectable<HaggleMessagesTable>;
