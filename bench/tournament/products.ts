import { productSeed } from '../../src/modules/products/products.seed.js';
import { CATEGORIES } from '../../src/seller/index.js';
import type { TournamentProduct } from './play.js';

export const seededProducts: readonly TournamentProduct[] = productSeed;

/** A small deterministic generator (mulberry32), so generated products are the same every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
