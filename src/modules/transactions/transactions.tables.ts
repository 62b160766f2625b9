import type { Selectable } from 'kysely';

export interface TransactionsTable {
  id: string;
  player_id: string;
  product_id: string;
  session_id: string;
  quantity: number;
  /** `*_cents`: integer cents, at most 2,147,483,647 (4-byte on PostgreSQL; see migration 0002). */
  market_cents: number;
  final_price_cents: number;
  status: 'completed';
  created_at: string;
}

export type TransactionRow = Selectable<TransactionsTable>;
