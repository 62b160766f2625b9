import type { Selectable } from 'kysely';
import type { Category } from '../../seller/index.js';

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  category: Category;
  /** `*_cents`: integer cents, at most 2,147,483,647 (4-byte on PostgreSQL; see migration 0002). */
  market_cents: number;
  stock_quantity: number;
  created_at: string;
  updated_at: string;
}

export type ProductRow = Selectable<ProductsTable>;
