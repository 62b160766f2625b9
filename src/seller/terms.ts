import { keyedUnitInterval } from './hash.js';
import {
  DEMAND_MAX_PERCENT,
  DEMAND_SOFTEN_HOURS,
  DEMAND_STEP_PERCENT,
  FLOOR_BAND_PERCENT,
  FLOOR_CEILING_PERCENT,
  REPEAT_MAX_DEALS,
  REPEAT_STEP_PERCENT,
  SCARCE_ASK_PERCENT,
  SCARCE_STOCK,
} from './rules.js';

export type Category = 'Electronics' | 'Fashion' | 'Food & Drink' | 'Books' | 'Home & Kitchen';

export const CATEGORIES: readonly Category[] = [
  'Electronics',
  'Fashion',
  'Food & Drink',
  'Books',
  'Home & Kitchen',
];

/**
 * The centre of each category's floor band, as a fraction of market price. Perishable and
 * branded goods hold their price; fashion has the most room.
 */
const FLOOR_BASE: Record<Category, number> = {
  Electronics: 0.8,
  'Food & Drink': 0.84,
  Books: 0.76,
  'Home & Kitchen': 0.72,
  Fashion: 0.66,
};

const PLENTIFUL_STOCK = 30;

export interface ProductFacts {
  productId: string;
  category: Category;
  marketCents: number;
  stock: number;
}

/** What the seller knows about the buyer when a negotiation opens. */
export interface BuyerFacts {
  playerId: string;
  /** Deals this player already made on this product. */
  earlierDeals: number;
}

export interface SellerTerms {
  /** The lowest price the seller will ever take. Private: never leaves the server. */
  floorCents: number;
  /** The seller's first ask: the market price, or 5 % above it when stock is scarce. */
  openingAskCents: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The private terms of a negotiation, fixed when it starts. The floor is drawn for this player
 * and this product from a keyed hash (player, product, server secret) within a band around the
 * category's base — never from anything the buyer sends, and not from the session, so a retry is
 * not a new draw — then raised by the player's earlier deals on the product and moved by the
 * product's demand (`demand`, in % of market: see `demandPercent`).
 */
export function sellerTerms(
  product: ProductFacts,
  buyer: BuyerFacts,
  demand: number,
  secret: string,
): SellerTerms {
  const market = product.marketCents;
  const scarce = product.stock <= SCARCE_STOCK;
  const stockAdjustment = scarce ? 0.02 : product.stock >= PLENTIFUL_STOCK ? -0.04 : 0;
  const draw = keyedUnitInterval(secret, 'floor', buyer.playerId, product.productId);
  const band = ((2 * draw - 1) * FLOOR_BAND_PERCENT) / 100;
  const drawn = clamp(FLOOR_BASE[product.category] + stockAdjustment + band, 0.55, 0.9);
  const repeat = (Math.min(buyer.earlierDeals, REPEAT_MAX_DEALS) * REPEAT_STEP_PERCENT) / 100;
  const fraction = clamp(drawn + repeat + demand / 100, 0.5, FLOOR_CEILING_PERCENT / 100);
  const openingAskCents = scarce ? Math.ceil((market * (100 + SCARCE_ASK_PERCENT)) / 100) : market;
  return { floorCents: Math.min(openingAskCents, Math.ceil(market * fraction)), openingAskCents };
}

/** A product's sales as stored on its row: counts of the hour of its latest sale and the hour before. */
export interface SalesRecord {
  /** Hours since the epoch of the latest sale, or null before the first. */
  saleHour: number | null;
  salesThisHour: number;
  salesHourBefore: number;
  /** Hours since the epoch when the product was added: idle time counts from there before a sale. */
  addedHour: number;
}

/** Hours since the epoch at `at` (an ISO time), the unit the sales record counts in. */
export const hourAt = (epochMs: number): number => Math.floor(epochMs / 3_600_000);
export const hourOf = (at: string): number => hourAt(Date.parse(at));

/**
 * How far demand moves every player's floor for a product, in % of market at hour `hour`: one
 * step up per sale in this hour and the one before, one step down per `DEMAND_SOFTEN_HOURS`
 * hours without a sale, at most `DEMAND_MAX_PERCENT` either way. Deterministic for a given sales
 * record, so every server process agrees.
 */
export function demandPercent(sales: SalesRecord, hour: number): number {
  const { saleHour } = sales;
  const recent =
    saleHour === null || saleHour < hour - 1
      ? 0
      : saleHour >= hour
        ? sales.salesThisHour + sales.salesHourBefore
        : sales.salesThisHour;
  if (recent > 0) return Math.min(DEMAND_MAX_PERCENT, recent * DEMAND_STEP_PERCENT);
  const idleHours = Math.max(0, hour - (saleHour ?? sales.addedHour));
  const soften = Math.floor(idleHours / DEMAND_SOFTEN_HOURS) * DEMAND_STEP_PERCENT;
  return soften === 0 ? 0 : -Math.min(DEMAND_MAX_PERCENT, soften);
}

export type DemandLevel = 'low' | 'normal' | 'high';

/** The public signal of demand: players see the level, never the floor it moves. */
export function demandLevel(percent: number): DemandLevel {
  if (percent >= 3 * DEMAND_STEP_PERCENT) return 'high';
  if (percent <= -2 * DEMAND_STEP_PERCENT) return 'low';
  return 'normal';
}
