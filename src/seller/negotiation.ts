import { keyedUnitInterval } from './hash.js';
import { greetingMessage, sellerMessage, type Intent } from './messages.js';
import { FAIR_LINE_PERCENT, INSULT_LINE_PERCENT, type Objection } from './terms.js';

export type { Objection } from './terms.js';

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

/** What the seller remembers between rounds; rebuilt by replaying the history. */
interface Memory {
  ask: number;
  bestOffer: number | null;
  previousOffer: number | null;
  strikes: number;
  retreats: number;
  /** Steps the buyer has earned: a raise earns one, holding a fair offer a fraction of one. */
  earnedSteps: number;
}

/** The seller's temperament toward one buyer on one product. */
interface Temperament {
  reciprocity: number;
  pace: number;
}

/** The share of the bargaining window the seller gives up at most. */
const MAX_CONCESSION = 0.6;
/** Earned steps after which the seller's concession is complete: later rounds add nothing. */
const STEPS_TO_LIMIT = 6;
/** A raise earns a full step; holding an offer at or above the fair line earns this much. */
const HOLDING_STEP = 0.75;

/**
 * From a keyed hash of the player, the product and the server secret — never the session — so a
 * new session with the same offers gets the same answers: retrying is not a new draw.
 */
function temperamentOf(ctx: SellerContext): Temperament {
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
 * The smallest raise the seller counts as a move: 0.5 % of the market price, at least a cent.
 * Published, so that buyers know what earns a concession.
 */
export function movingStepCents(marketCents: number): number {
  return Math.max(1, Math.ceil((marketCents * 5) / 1000));
}

/** One negotiation, played offer by offer; the words are added by `respondToOffer`. */
export class Negotiation {
  readonly #ctx: SellerContext;
  readonly #temperament: Temperament;
  #memory: Memory;
  #round = 0;
  #over = false;

  constructor(ctx: SellerContext) {
    this.#ctx = ctx;
    this.#temperament = temperamentOf(ctx);
    this.#memory = {
      ask: ctx.openingAskCents,
      bestOffer: null,
      previousOffer: null,
      strikes: 0,
      retreats: 0,
      earnedSteps: 0,
    };
  }

  get round(): number {
    return this.#round;
  }

  get ask(): number {
    return this.#memory.ask;
  }

  /** Answers the next offer. Never counters or accepts below the floor. */
  offer(offerCents: number): SellerDecision {
    if (this.#over || this.#round >= MAX_ROUNDS) throw new Error('the negotiation is over');
    this.#round += 1;
    const decision = this.#decide(this.#round, offerCents);
    this.#over = decision.action !== 'counter';
    return decision;
  }

  /** Replaces the ask by the counter the buyer was actually told, when replaying a history. */
  recordCounter(counterCents: number | null): void {
    if (counterCents !== null) this.#memory.ask = counterCents;
  }

  #decide(round: number, offer: number): SellerDecision {
    const ctx = this.#ctx;
    const memory = this.#memory;
    const market = ctx.marketCents;
    const floor = ctx.floorCents;
    const previousAsk = memory.ask;
    const lastRound = round === MAX_ROUNDS;
    const next: Memory = {
      ask: memory.ask,
      bestOffer: memory.bestOffer,
      previousOffer: offer,
      strikes: memory.strikes,
      retreats: memory.retreats,
      earnedSteps: memory.earnedSteps,
    };
    this.#memory = next;

    if (offer >= previousAsk) return this.#reply(round, 'accept', offer, 'none', null, true);

    if (offer * 100 < INSULT_LINE_PERCENT * market) {
      next.strikes += 1;
      const left = STRIKES - next.strikes;
      if (left <= 0) return this.#reply(round, 'reject_insult', offer, 'insult', 0, false);
      if (lastRound) return this.#reply(round, 'expired', offer, 'insult', left, false);
      return this.#reply(round, 'insult_warning', previousAsk, 'insult', left, false);
    }

    if (memory.previousOffer !== null && offer < memory.previousOffer) {
      next.retreats += 1;
      const left = STRIKES - next.retreats;
      if (left <= 0) return this.#reply(round, 'reject_bad_faith', offer, 'retreat', 0, false);
      if (lastRound) return this.#reply(round, 'expired', offer, 'retreat', left, false);
      return this.#reply(round, 'counter_hold', previousAsk, 'retreat', left, false);
    }

    // What the buyer has earned decides both the counter and acceptance: a round earns only by
    // a raise of at least the counted step, or by holding an offer at or above the fair line.
    const moved = memory.bestOffer === null || offer >= memory.bestOffer + movingStepCents(market);
    const earned = moved || offer * 100 >= FAIR_LINE_PERCENT * market;
    next.bestOffer = Math.max(memory.bestOffer ?? 0, offer);
    const objection: Objection = earned ? 'none' : 'stall';

    // A final counter is final: round 10 takes only an offer at or above it.
    if (lastRound) return this.#reply(round, 'expired', offer, objection, null, moved);

    let ask = previousAsk;
    if (earned) {
      next.earnedSteps += moved ? 1 : HOLDING_STEP;
      const window = Math.max(1, ctx.openingAskCents - floor);
      const midpoint = floor + window / 2;
      const referenceLow = floor - window / 2;
      // Boulware in earned steps, not in time: waiting, or jumping late, earns nothing that
      // the same raises spread over the rounds would not have earned.
      const progress = Math.min(1, next.earnedSteps / STEPS_TO_LIMIT);
      const limit = MAX_CONCESSION * progress ** 3;
      // Reciprocity: only the current offer counts, so a high offer dropped keeps no credit.
      const position = clamp((offer - referenceLow) / (midpoint - referenceLow), 0, 1);
      const earnedConcession = Math.min(
        limit,
        (this.#temperament.pace * next.earnedSteps) / MAX_ROUNDS +
          this.#temperament.reciprocity * position,
      );
      ask = Math.min(
        previousAsk,
        Math.max(floor, Math.ceil(ctx.openingAskCents - earnedConcession * window)),
      );
    }

    // AC_next: take an offer as good as the counter it would make, less a small tolerance.
    const tolerance = Math.max(1, Math.floor((market * 5) / 1000));
    if (offer >= Math.max(floor, ask - tolerance))
      return this.#reply(round, 'accept', offer, objection, null, moved);

    const intent: Intent =
      ask === previousAsk
        ? 'counter_hold'
        : (previousAsk - ask) * 100 >= 3 * market
          ? 'counter_big'
          : 'counter_small';
    return this.#reply(round, intent, ask, objection, null, moved);
  }

  /** The decision for `intent`; `price` is the deal price, the counter, or the offer refused. */
  #reply(
    round: number,
    intent: Intent,
    price: number,
    objection: Objection,
    strikesLeft: number | null,
    moved: boolean,
  ): SellerDecision {
    const previousAskCents = this.#memory.ask;
    const ends =
      intent === 'reject_insult' || intent === 'reject_bad_faith' || intent === 'expired';
    const counters = intent !== 'accept' && !ends;
    if (counters) this.#memory.ask = price;
    const finalCounter = counters && round === FINAL_COUNTER_ROUND;
    return {
      action: counters ? 'counter' : ends ? 'reject' : 'accept',
      outcome: counters
        ? 'countered'
        : intent === 'accept'
          ? 'accepted'
          : intent === 'expired'
            ? 'expired'
            : 'rejected',
      dealCents: intent === 'accept' ? price : null,
      counterCents: counters ? price : null,
      round,
      roundsLeft: MAX_ROUNDS - round,
      final: !counters || finalCounter,
      objection,
      strikesLeft,
      intent: finalCounter ? 'final_offer' : intent,
      previousAskCents,
      moved,
    };
  }
}

/** The seller's latest counter-offer in a history, or null before its first. */
export function lastCounter(history: readonly PastRound[]): number | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const counter = history[i]?.counterCents;
    if (counter !== null && counter !== undefined) return counter;
  }
  return null;
}

/**
 * The seller's answer to the buyer's offer in the round after `history`. Everything the seller
 * remembers (its ask, strikes, retreats, earned rounds, the phrases it used) is rebuilt by
 * replaying the history, so the game stores nothing but the messages, and any process gives
 * the same answer. The buyer's words choose an acknowledgement, never a price.
 */
export function respondToOffer(
  ctx: SellerContext,
  history: readonly PastRound[],
  offerCents: number,
  playerMessage: string | null = null,
): SellerReply {
  const negotiation = new Negotiation(ctx);
  const used = new Set<string>();
  greetingMessage(ctx, used);
  for (const past of history) {
    const decision = negotiation.offer(past.offerCents);
    sellerMessage(ctx, decision, past.offerCents, past.playerMessage ?? null, used);
    // The recorded counter is what the buyer was told; it stays the ask.
    negotiation.recordCounter(past.counterCents);
  }
  const decision = negotiation.offer(offerCents);
  return { ...decision, message: sellerMessage(ctx, decision, offerCents, playerMessage, used) };
}

/** The seller's greeting, which names the market price and the opening ask. */
export function openingMessage(ctx: SellerContext): string {
  return greetingMessage(ctx, new Set());
}
