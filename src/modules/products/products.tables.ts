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
  /** Recent sales (see `SalesRecord` in src/seller/terms.ts): hours since the epoch of the latest sale… */
  sale_hour: number | null;
  /** …the sales in that hour, and in the hour before it. Kept by each deal's update of this row. */
  sales_this_hour: number;
  sales_hour_before: number;
  created_at: string;
  updated_at: string;
}

export type ProductRow = Selectable<ProductsTable>;
