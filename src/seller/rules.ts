import type { Intent } from './messages.js';
import type { Objection } from './terms.js';

export type { Objection } from './terms.js';

/** The game's rules as the seller plays them; everything else imports them from here. */
export const MAX_ROUNDS = 10;
/** The round whose counter-offer is the seller's last one. */
export const FINAL_COUNTER_ROUND = MAX_ROUNDS - 1;
/** Insulting offers, and retreats, that the seller takes before it ends the negotiation. */
export const STRIKES = 2;

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
  return Math.max(1, Math.ceil((marketCents * 5) / 1000));
}

/** The seller's latest counter-offer in a history, or null before its first. */
export function lastCounter(history: readonly PastRound[]): number | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const counter = history[i]?.counterCents;
    if (counter !== null && counter !== undefined) return counter;
  }
  return null;
}
