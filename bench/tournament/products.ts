import { productSeed } from '../../src/modules/products/products.seed.js';
import { CATEGORIES } from '../../src/seller/index.js';
import type { TournamentProduct } from './play.js';
import { generator } from './random.js';

export const seededProducts: readonly TournamentProduct[] = productSeed;

/** `count` products spread over the categories, prices 2.00–95.00, stock 0–40. */
export function generatedProducts(count: number, seed = 7): TournamentProduct[] {
  const random = generator(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `generated-${i}`,
    name: `Generated product ${i}`,
    category: CATEGORIES[i % CATEGORIES.length] ?? 'Books',
    marketCents: 200 + Math.floor(random() * 9301),
    stock: Math.floor(random() * 41),
  }));
}
