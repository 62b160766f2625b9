import type { Selectable } from 'kysely';
import type { Category } from '../../seller/index.js';

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  category: Category;
  market_cents: number;
  stock_quantity: number;
  created_at: string;
  updated_at: string;
}

export type ProductRow = Selectable<ProductsTable>;
