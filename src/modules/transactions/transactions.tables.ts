import type { Selectable } from 'kysely';

export interface TransactionsTable {
  id: string;
  player_id: string;
  product_id: string;
  session_id: string;
  quantity: number;
  market_cents: number;
  final_price_cents: number;
  status: 'completed';
  created_at: string;
}

export type TransactionRow = Selectable<TransactionsTable>;
