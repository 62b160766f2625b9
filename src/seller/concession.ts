import { keyedUnitInterval } from './hash.js';
import { MAX_ROUNDS, type SellerContext } from './rules.js';

/** The seller's temperament toward one buyer on one product. */
export interface Temperament {
  reciprocity: number;
  pace: number;
}

/** The share of the bargaining window the seller gives up at most. */
const MAX_CONCESSION = 0.6;
/** Earned steps after which the seller's concession is complete: later rounds add nothing. */
const STEPS_TO_LIMIT = 6;
/** A raise earns a full step; holding an offer at or above the fair line earns this much. */
export const HOLDING_STEP = 0.75;

/**
 * From a keyed hash of the player, the product and the server secret — never the session — so a
 * new session with the same offers gets the same answers: retrying is not a new draw.
 */
export function temperamentOf(ctx: SellerContext): Temperament {
  const known = temperaments.get(ctx);
  if (known !== undefined) return known;
  const draw = (name: string) => keyedUnitInterval(ctx.secret, name, ctx.playerId, ctx.productId);
  const temperament = {
    reciprocity: 0.8 * (0.9 + 0.2 * draw('reciprocity')),
    pace: 0.12 * (0.8 + 0.4 * draw('pace')),
  };
  temperaments.set(ctx, temperament);
  return temperament;
}

/** Hashing is the costly part of a round; a context keeps its temperament while it lives. */
const temperaments = new WeakMap<SellerContext, Temperament>();

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The ask after a round that earned something: never above the previous ask, never below the
 * floor. `earnedSteps` already includes this round's step.
 */
export function concededAsk(
  ctx: SellerContext,
  temperament: Temperament,
  earnedSteps: number,
  offer: number,
  previousAsk: number,
): number {
  const floor = ctx.floorCents;
  const window = Math.max(1, ctx.openingAskCents - floor);
  const midpoint = floor + window / 2;
  const referenceLow = floor - window / 2;
  // Boulware in earned steps, not in time: waiting, or jumping late, earns nothing that
  // the same raises spread over the rounds would not have earned.
  const progress = Math.min(1, earnedSteps / STEPS_TO_LIMIT);
  const limit = MAX_CONCESSION * progress ** 3;
  // Reciprocity: only the current offer counts, so a high offer dropped keeps no credit.
  const position = clamp((offer - referenceLow) / (midpoint - referenceLow), 0, 1);
  const earnedConcession = Math.min(
    limit,
    (temperament.pace * earnedSteps) / MAX_ROUNDS + temperament.reciprocity * position,
  );
  return Math.min(
    previousAsk,
    Math.max(floor, Math.ceil(ctx.openingAskCents - earnedConcession * window)),
  );
}
