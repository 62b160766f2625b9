/** What the seller means to say; the words are chosen per session from its phrases. */
export type Intent =
  | 'greet'
  | 'counter_small'
  | 'counter_big'
  | 'counter_hold'
  | 'insult_warning'
  | 'final_offer'
  | 'accept'
  | 'reject_insult'
  | 'reject_bad_faith'
  | 'expired';

/**
 * What the seller objected to in an offer: `insult` (below the insult line), `retreat` (below
 * the buyer's previous offer), `stall` (no raise, below the fair line: it earns nothing).
 */
export type Objection = 'none' | 'insult' | 'retreat' | 'stall';

/** The game's rules as the seller plays them; everything else imports them from here. */
export const MAX_ROUNDS = 10;
/** The round whose counter-offer is the seller's last one. */
export const FINAL_COUNTER_ROUND = MAX_ROUNDS - 1;
/** Insulting offers, and retreats, that the seller takes before it ends the negotiation. */
export const STRIKES = 2;
/** Offers below this percentage of the market price are insulting. */
export const INSULT_LINE_PERCENT = 40;
/**
 * Offers at or above this percentage of the market price are serious enough that holding them
 * is not stalling. Below it, only a raise earns a concession.
 */
export const FAIR_LINE_PERCENT = 88;
/** The smallest raise the seller counts as a move, in tenths of a percent of market (0.5 %). */
export const MOVING_STEP_PER_MILLE = 5;

/**
 * How the seller's words describe the gap between its counter and the offer, in % of market:
 * at least `far` is far apart, more than `apart` still apart, more than `close` nearer, else close.
 */
export const GAP_PERCENT = { far: 20, apart: 10, close: 5 } as const;
export type GapWord = keyof typeof GAP_PERCENT | 'nearer';

/** The word for the gap between a counter and an offer, by `GAP_PERCENT`. */
export function gapWord(gapCents: number, marketCents: number): GapWord {
  if (gapCents * 100 >= GAP_PERCENT.far * marketCents) return 'far';
  if (gapCents * 100 > GAP_PERCENT.apart * marketCents) return 'apart';
  if (gapCents * 100 > GAP_PERCENT.close * marketCents) return 'nearer';
  return 'close';
}

/**
 * A steady raise is one of ¾ % to 1 % of market (in tenths of a percent). `STEADY_STREAK` offers
 * in a row inside the seller's comfort zone (a band around its floor, placed by its hidden
 * temperament), each after the first a steady raise (the first only a counted one), earn a
 * further concession: the seller closes with a buyer who approaches it steadily where it is
 * comfortable.
 */
export const STEADY_RAISE_PER_MILLE = { low: 7.5, high: 10 } as const;
export const STEADY_STREAK = 7;

/** Whether a raise of `raiseCents` is steady (see `STEADY_RAISE_PER_MILLE`). */
export const isSteadyRaise = (raiseCents: number, marketCents: number): boolean =>
  raiseCents * 1000 >= STEADY_RAISE_PER_MILLE.low * marketCents &&
  raiseCents * 1000 <= STEADY_RAISE_PER_MILLE.high * marketCents;

/** A counter at least this % of market below the previous ask is a big step down. */
export const BIG_STEP_PERCENT = 3;

/** Stock at or below which the product is scarce: the seller opens this % above market (and its floor is firmer). */
export const SCARCE_STOCK = 3;
export const SCARCE_ASK_PERCENT = 5;

// Version 3: the hidden terms of each (player, product) pair and what moves them.
/** Half the width of the band around the category's base from which each player's floor is drawn, % of market. */
export const FLOOR_BAND_PERCENT = 5.75;
/** Each earlier deal by this player on this product raises their floor for it by this, % of market… */
export const REPEAT_STEP_PERCENT = 3;
/** …for at most this many earlier deals. */
export const REPEAT_MAX_DEALS = 5;
/** The highest a floor goes with repeat purchases and demand, % of market (the ask stays above it). */
export const FLOOR_CEILING_PERCENT = 95;
/** Demand moves every player's floor by at most this, up or down, % of market. */
export const DEMAND_MAX_PERCENT = 5;
/** Each sale in the current and the previous hour firms the floor by this, % of market. */
export const DEMAND_STEP_PERCENT = 1;
/** Every this many hours without a sale soften the floor by one step. */
export const DEMAND_SOFTEN_HOURS = 6;

/** What the seller knows about a negotiation: public facts and its own private terms. */
export interface SellerContext {
  /** Varies the seller's words only; no price depends on it. */
  sessionId: string;
  /** With the product and the secret, fixes the seller's temperament toward this buyer. */
  playerId: string;
  productId: string;
  /** The server's secret: keys the hash of the temperament, so it cannot be computed outside. */
  secret: string;
  productName: string;
  /** The product's description: questions about the product are answered from it. */
  productDescription?: string;
  /** Public facts the words may state: the product's demand level and stock. No price depends on them. */
  demand?: 'low' | 'normal' | 'high';
  stock?: number;
  marketCents: number;
  floorCents: number;
  openingAskCents: number;
}

/** One earlier round: the buyer's offer, its words, and the seller's counter (null if none). */
export interface PastRound {
  offerCents: number;
  counterCents: number | null;
  playerMessage?: string | null;
}

/** The seller's answer without its words: everything a price depends on. */
export interface SellerDecision {
  action: 'accept' | 'counter' | 'reject';
  /** `expired`: the 10th offer was not accepted (the action is then `reject`). */
  outcome: 'accepted' | 'countered' | 'rejected' | 'expired';
  /** The deal price (the offer) when accepted, else null. */
  dealCents: number | null;
  /** The seller's new ask when it counters, else null. */
  counterCents: number | null;
  round: number;
  roundsLeft: number;
  /** True for round 9's counter (the last one) and for every reply that ends the negotiation. */
  final: boolean;
  objection: Objection;
  /**
   * For an insult or a retreat: how many more of that kind the seller takes (it counts down
   * from 2; at 0 the negotiation has ended). Null when nothing of that kind was objected to.
   */
  strikesLeft: number | null;
  /** What the words are to say; not part of the API. */
  intent: Intent;
  /** The ask this reply answers (the opening ask or the latest counter). */
  previousAskCents: number;
  /** The offer raised the buyer's best by a counted step. */
  moved: boolean;
}

export interface SellerReply extends SellerDecision {
  message: string;
}

/**
 * The smallest raise the seller counts as a move: 0.5 % of the market price, at least a cent.
 * Published, so that buyers know what earns a concession.
 */
export function movingStepCents(marketCents: number): number {
  return Math.max(1, Math.ceil((marketCents * MOVING_STEP_PER_MILLE) / 1000));
}

/** Whether `cents` is at least `percent` % of the market price, in integers. */
export const atLeastPercent = (cents: number, percent: number, marketCents: number): boolean =>
  cents * 100 >= percent * marketCents;

/** The seller's latest counter-offer in a history, or null before its first. */
export function lastCounter(history: readonly PastRound[]): number | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const counter = history[i]?.counterCents;
    if (counter !== null && counter !== undefined) return counter;
  }
  return null;
}
