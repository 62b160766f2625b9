import { unitInterval } from './hash.js';
import { sellerMessage, type Intent } from './messages.js';
import { INSULT_LINE_PERCENT } from './terms.js';

export const MAX_ROUNDS = 10;

/** What the seller knows about a negotiation: public facts and its own private terms. */
export interface SellerContext {
  sessionId: string;
  productName: string;
  marketCents: number;
  floorCents: number;
  openingAskCents: number;
}

/** One earlier round: the buyer's offer and the seller's counter to it (null if none). */
export interface PastRound {
  offerCents: number;
  counterCents: number | null;
}

export interface SellerReply {
  action: 'accept' | 'counter' | 'reject';
  /** `expired`: the 10th offer was not accepted (the action is then `reject`). */
  outcome: 'accepted' | 'countered' | 'rejected' | 'expired';
  /** The deal price (the offer) when accepted, else null. */
  dealCents: number | null;
  /** The seller's new ask when it counters, else null. */
  counterCents: number | null;
  message: string;
  round: number;
  roundsLeft: number;
  /** True for round 9's counter (the last one) and for every reply that ends the negotiation. */
  final: boolean;
}

/** What the seller remembers between rounds; always rebuilt by replaying the history. */
interface Memory {
  ask: number;
  bestOffer: number | null;
  previousOffer: number | null;
  strikes: number;
  retreats: number;
  stalls: number;
}

type Decision =
  | { kind: 'accept'; intent: Intent }
  | { kind: 'counter'; counter: number; intent: Intent }
  | { kind: 'reject'; intent: Intent }
  | { kind: 'expire'; intent: Intent };

/** Per-session temperament, from the session id alone: how much the seller rewards good offers. */
interface Temperament {
  reciprocity: number;
  pace: number;
}

/** Boulware exponent: the seller concedes slowly early and faster near the deadline. */
const BOULWARE = 0.5;
/** The seller's concession toward a meet-in-the-middle in the last rounds, in % of market. */
const SPLIT_GAP_PERCENT = 4;

function temperamentOf(sessionId: string): Temperament {
  return {
    reciprocity: 0.8 * (0.95 + 0.1 * unitInterval(sessionId, 'reciprocity')),
    pace: 0.12 * (0.9 + 0.2 * unitInterval(sessionId, 'pace')),
  };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

const isInsulting = (offer: number, market: number) => offer * 100 < INSULT_LINE_PERCENT * market;

/**
 * Decides one round. Pure: the same context, memory, round and offer always give the same
 * decision. Never returns a counter or accepts a price below the floor.
 */
function decide(
  ctx: SellerContext,
  temperament: Temperament,
  memory: Memory,
  round: number,
  offer: number,
): { decision: Decision; memory: Memory } {
  const market = ctx.marketCents;
  const floor = ctx.floorCents;
  const window = Math.max(1, ctx.openingAskCents - floor);
  const midpoint = floor + window / 2;
  const referenceLow = floor - window / 2;
  const tolerance = Math.max(1, (market * 5) / 1000);
  const step = Math.max(1, Math.ceil((market * 5) / 1000));
  const next: Memory = { ...memory, previousOffer: offer };
  const counterAtAsk = (intent: Intent) => ({
    decision: { kind: 'counter' as const, counter: memory.ask, intent },
    memory: next,
  });

  if (offer >= memory.ask) return { decision: { kind: 'accept', intent: 'accept' }, memory: next };

  if (isInsulting(offer, market)) {
    next.strikes += 1;
    if (next.strikes >= 2)
      return { decision: { kind: 'reject', intent: 'reject_insult' }, memory: next };
    return round === MAX_ROUNDS
      ? { decision: { kind: 'expire', intent: 'expired' }, memory: next }
      : counterAtAsk('insult_warning');
  }

  if (memory.previousOffer !== null && offer < memory.previousOffer) {
    next.retreats += 1;
    if (next.retreats >= 2) {
      return { decision: { kind: 'reject', intent: 'reject_bad_faith' }, memory: next };
    }
    return round === MAX_ROUNDS
      ? { decision: { kind: 'expire', intent: 'expired' }, memory: next }
      : counterAtAsk('counter_freeze');
  }

  const moved = memory.bestOffer === null || offer >= memory.bestOffer + step;
  next.bestOffer = Math.max(memory.bestOffer ?? 0, offer);
  next.stalls = !moved && offer < midpoint ? memory.stalls + 1 : 0;

  // Concede with time (Boulware) but never more than the current offer earns (reciprocity):
  // an offer made high once and then dropped earns nothing, because only this offer counts.
  const t = round / MAX_ROUNDS;
  const position = clamp((offer - referenceLow) / (midpoint - referenceLow), 0, 1);
  const concession = Math.min(
    t ** (1 / BOULWARE),
    temperament.pace * t + temperament.reciprocity * position,
  );
  let plan = Math.min(memory.ask, Math.max(floor, ctx.openingAskCents - concession * window));
  const closing =
    round >= 8 && moved && plan - offer <= (market * SPLIT_GAP_PERCENT) / 100 && plan > offer;
  if (closing) plan = Math.max(floor, (plan + offer) / 2);

  if (offer >= Math.max(floor, plan - tolerance)) {
    return { decision: { kind: 'accept', intent: 'accept' }, memory: next };
  }
  if (round === MAX_ROUNDS)
    return { decision: { kind: 'expire', intent: 'expired' }, memory: next };
  // Waiting earns nothing: after two offers in a row that did not move, the ask stays put.
  if (next.stalls >= 2) return counterAtAsk('counter_freeze');

  const counter = Math.min(memory.ask, Math.ceil(plan));
  next.ask = counter;
  const intent: Intent =
    round === MAX_ROUNDS - 1
      ? 'final_offer'
      : closing
        ? 'closing_split'
        : (memory.ask - counter) * 100 >= 3 * market
          ? 'counter_big'
          : 'counter_small';
  return { decision: { kind: 'counter', counter, intent }, memory: next };
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
 * remembers (its ask, strikes, retreats, stalls) is rebuilt by replaying the history, so the
 * game stores nothing but the offers and counters, and any process gives the same answer.
 */
export function respondToOffer(
  ctx: SellerContext,
  history: readonly PastRound[],
  offerCents: number,
): SellerReply {
  const temperament = temperamentOf(ctx.sessionId);
  let memory: Memory = {
    ask: ctx.openingAskCents,
    bestOffer: null,
    previousOffer: null,
    strikes: 0,
    retreats: 0,
    stalls: 0,
  };
  history.forEach((past, index) => {
    memory = decide(ctx, temperament, memory, index + 1, past.offerCents).memory;
    // The recorded counter is what the buyer was told; it stays the ask.
    if (past.counterCents !== null) memory.ask = past.counterCents;
  });
  const round = history.length + 1;
  const { decision } = decide(ctx, temperament, memory, round, offerCents);
  const roundsLeft = MAX_ROUNDS - round;
  const say = (price: number | null) =>
    sellerMessage(ctx, decision.intent, {
      round,
      offerCents,
      priceCents: price,
      moved: memory.bestOffer === null || offerCents > memory.bestOffer,
      roundsLeft,
    });
  const base = { round, roundsLeft };
  switch (decision.kind) {
    case 'accept':
      return {
        ...base,
        action: 'accept',
        outcome: 'accepted',
        dealCents: offerCents,
        counterCents: null,
        message: say(offerCents),
        final: true,
      };
    case 'counter':
      return {
        ...base,
        action: 'counter',
        outcome: 'countered',
        dealCents: null,
        counterCents: decision.counter,
        message: say(decision.counter),
        final: round === MAX_ROUNDS - 1,
      };
    case 'reject':
    case 'expire':
      return {
        ...base,
        action: 'reject',
        outcome: decision.kind === 'reject' ? 'rejected' : 'expired',
        dealCents: null,
        counterCents: null,
        message: say(null),
        final: true,
      };
  }
}
