import {
  concededAsk,
  HOLDING_STEP,
  inComfortZone,
  temperamentOf,
  type Temperament,
} from './concession.js';
import {
  greetingMessage,
  greetingPhrases,
  replyPhrases,
  sellerMessage,
  type Intent,
} from './messages.js';
import {
  atLeastPercent,
  BIG_STEP_PERCENT,
  FAIR_LINE_PERCENT,
  FINAL_COUNTER_ROUND,
  INSULT_LINE_PERCENT,
  MAX_ROUNDS,
  movingStepCents,
  isSteadyRaise,
  STRIKES,
  type Objection,
  type PastRound,
  type SellerContext,
  type SellerDecision,
  type SellerReply,
} from './rules.js';

/** What the seller remembers between rounds; rebuilt by replaying the history. */
interface Memory {
  ask: number;
  bestOffer: number | null;
  previousOffer: number | null;
  strikes: number;
  retreats: number;
  /** Steps the buyer has earned: a raise earns one, holding a fair offer a fraction of one. */
  earnedSteps: number;
  /** Raises in a row that landed in the seller's comfort zone (see `comfortZone`). */
  zoneStreak: number;
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
      zoneStreak: 0,
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
      zoneStreak: 0,
    };
    this.#memory = next;

    if (offer >= previousAsk) return this.#reply(round, 'accept', offer, 'none', null, true);

    if (!atLeastPercent(offer, INSULT_LINE_PERCENT, market)) {
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
    const earned = moved || atLeastPercent(offer, FAIR_LINE_PERCENT, market);
    next.bestOffer = Math.max(memory.bestOffer ?? 0, offer);
    const objection: Objection = earned ? 'none' : 'stall';

    // A final counter is final: round 10 takes only an offer at or above it.
    if (lastRound) return this.#reply(round, 'expired', offer, objection, null, moved);

    const steady =
      memory.previousOffer !== null && isSteadyRaise(offer - memory.previousOffer, market);
    next.zoneStreak =
      moved && (steady || memory.zoneStreak === 0) && inComfortZone(ctx, this.#temperament, offer)
        ? memory.zoneStreak + 1
        : 0;
    let ask = previousAsk;
    if (earned) {
      next.earnedSteps += moved ? 1 : HOLDING_STEP;
      ask = concededAsk(ctx, this.#temperament, next, offer, previousAsk);
    }

    // AC_next: take an offer as good as the counter it would make, less the counted step.
    if (offer >= Math.max(floor, ask - movingStepCents(market)))
      return this.#reply(round, 'accept', offer, objection, null, moved);

    const intent: Intent =
      ask === previousAsk
        ? 'counter_hold'
        : atLeastPercent(previousAsk - ask, BIG_STEP_PERCENT, market)
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
  // The past messages are replayed for the phrases they used (a reply avoids repeating one),
  // not for their text.
  const used = new Set<string>();
  greetingPhrases(ctx, used);
  for (const past of history) {
    const decision = negotiation.offer(past.offerCents);
    replyPhrases(ctx, decision, past.offerCents, past.playerMessage ?? null, used);
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
