import { keyedUnitInterval } from './hash.js';
import { MAX_ROUNDS, STEADY_STREAK, type SellerContext } from './rules.js';

/** The seller's temperament toward one buyer on one product. */
export interface Temperament {
  reciprocity: number;
  pace: number;
  /** Where the seller's comfort zone starts above its floor, as a share of the window. */
  zoneStart: number;
}

/** The share of the bargaining window the seller gives up at most. */
const MAX_CONCESSION = 0.58;
/** Earned steps after which the seller's concession is complete: later rounds add nothing. */
const STEPS_TO_LIMIT = 6;
/** A raise earns a full step; holding an offer at or above the fair line earns this much. */
export const HOLDING_STEP = 0.75;

/**
 * The comfort zone, in shares of the window above the floor: it starts between these two (drawn
 * with the temperament, so hidden) and is this wide. It reaches a little below the floor, where
 * no deal is made, so that its start does not give the floor away.
 */
const ZONE_START_LOW = -0.1;
const ZONE_START_HIGH = 0;
const ZONE_WIDTH = 0.35;
/**
 * What a streak of `STEADY_STREAK` steady raises in the zone adds to the concession, as a share
 * of the window: with `MAX_CONCESSION` it leaves the seller at least 17 % of its window.
 */
const ZONE_BONUS = 0.25;

/**
 * Whether an offer lies in the seller's comfort zone: a band just above its floor, placed by the
 * seller's temperament. A buyer who raises steadily inside it is the buyer the seller most wants
 * to close with.
 */
export function inComfortZone(
  ctx: SellerContext,
  temperament: Temperament,
  offer: number,
): boolean {
  const window = Math.max(1, ctx.openingAskCents - ctx.floorCents);
  const start = ctx.floorCents + temperament.zoneStart * window;
  return offer >= start && offer <= start + ZONE_WIDTH * window;
}

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
    zoneStart: ZONE_START_LOW + (ZONE_START_HIGH - ZONE_START_LOW) * draw('zone'),
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
  earned: { earnedSteps: number; zoneStreak: number },
  offer: number,
  previousAsk: number,
): number {
  const { earnedSteps } = earned;
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
  const zone = earned.zoneStreak >= STEADY_STREAK ? ZONE_BONUS : 0;
  const earnedConcession =
    Math.min(
      limit,
      (temperament.pace * earnedSteps) / MAX_ROUNDS + temperament.reciprocity * position,
    ) + zone;
  return Math.min(
    previousAsk,
    Math.max(floor, Math.ceil(ctx.openingAskCents - earnedConcession * window)),
  );
}
