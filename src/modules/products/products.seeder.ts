import type { Seeder } from '../../db/database.js';
import { insertMissingProducts } from './products.repository.js';
import { productSeed } from './products.seed.js';

/**
 * Adds the shipped products that the database does not have yet. Existing rows are left alone:
 * their stock is the game's state, and a restart must not refill it.
 */
export const seedProducts: Seeder = async (store) => {
  const now = new Date().toISOString();
  await insertMissingProducts(
    store.db,
    productSeed.map((product) => ({
      id: product.id,
      name: product.name,
      description: product.description,
      category: product.category,
      market_cents: product.marketCents,
      stock_quantity: product.stock,
      sale_hour: null,
      sales_this_hour: 0,
      sales_hour_before: 0,
      created_at: now,
      updated_at: now,
    })),
  );
};
