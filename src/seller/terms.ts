import { keyedUnitInterval } from './hash.js';

export type Category = 'Electronics' | 'Fashion' | 'Food & Drink' | 'Books' | 'Home & Kitchen';

export const CATEGORIES: readonly Category[] = [
  'Electronics',
  'Fashion',
  'Food & Drink',
  'Books',
  'Home & Kitchen',
];

/** Offers below this percentage of the market price are insulting (published). */
export const INSULT_LINE_PERCENT = 40;

/**
 * Offers at or above this percentage of the market price are serious enough that holding them
 * is not stalling (published). Below it, only a raise earns a concession.
 */
export const FAIR_LINE_PERCENT = 88;

/**
 * What the seller objected to in an offer: `insult` (below the insult line), `retreat` (below
 * the buyer's previous offer), `stall` (no raise, below the fair line: it earns nothing).
 */
export type Objection = 'none' | 'insult' | 'retreat' | 'stall';

/**
 * How far below market each category's seller will go at most, as a fraction of market price.
 * Perishable and branded goods hold their price; fashion has the most room.
 */
const FLOOR_BASE: Record<Category, number> = {
  Electronics: 0.8,
  'Food & Drink': 0.84,
  Books: 0.76,
  'Home & Kitchen': 0.72,
  Fashion: 0.66,
};

const SCARCE_STOCK = 3;
const PLENTIFUL_STOCK = 30;

export interface ProductFacts {
  productId: string;
  category: Category;
  marketCents: number;
  stock: number;
}

export interface SellerTerms {
  /** The lowest price the seller will ever take. Private: never leaves the server. */
  floorCents: number;
  /** The seller's first ask: the market price, or 5 % above it when stock is scarce. */
  openingAskCents: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The private terms of a negotiation, fixed when it starts. They depend only on the product and
 * the server's secret — never on anything a buyer sends — so every process and every restart
 * prices a product alike, and a buyer cannot learn the floor by probing with their own input.
 */
export function sellerTerms(product: ProductFacts, secret: string): SellerTerms {
  const market = product.marketCents;
  const scarce = product.stock <= SCARCE_STOCK;
  const stockAdjustment = scarce ? 0.04 : product.stock >= PLENTIFUL_STOCK ? -0.04 : 0;
  const jitter = (keyedUnitInterval(secret, 'floor', product.productId) - 0.5) * 0.06;
  const fraction = clamp(FLOOR_BASE[product.category] + stockAdjustment + jitter, 0.55, 0.9);
  const openingAskCents = scarce ? Math.ceil((market * 105) / 100) : market;
  return { floorCents: Math.min(openingAskCents, Math.ceil(market * fraction)), openingAskCents };
}
