import { MAX_ROUNDS, Negotiation, type SellerContext } from '../../src/seller/index.js';
import { LocalGame } from './game.js';
import { generator } from './random.js';

/** The searching buyers: random search, the prober and the white-box search. */

/**
 * Plays `offers` and returns the cheapest deal it could have had on the way: an accepted offer,
 * or any counter taken when it was made (the buyer may accept a counter at any time).
 */
function cheapestAlong(context: SellerContext, offers: readonly number[]): number | null {
  const negotiation = new Negotiation(context);
  let best: number | null = null;
  for (const offer of offers) {
    const reply = negotiation.offer(Math.max(1, Math.round(offer)));
    if (reply.dealCents !== null)
      return best === null ? reply.dealCents : Math.min(best, reply.dealCents);
    if (reply.counterCents === null) return best;
    if (best === null || reply.counterCents < best) best = reply.counterCents;
  }
  return best;
}

/**
 * The random-search buyer: `count` random offer sequences on one product (random walks up from
 * a random start, with stalls, small and large raises, and the odd retreat), keeping the
 * cheapest deal any of them reached.
 */
export function randomSearchPrice(
  context: SellerContext,
  count: number,
  seed: number,
): number | null {
  const random = generator(seed);
  const market = context.marketCents;
  let best: number | null = null;
  for (let i = 0; i < count; i++) {
    const offers: number[] = [];
    let offer = market * (0.4 + 0.55 * random());
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      offers.push(offer);
      const kind = random();
      if (kind < 0.15) continue; // stall
      if (kind < 0.2)
        offer -= market * 0.03 * random(); // retreat
      else if (kind < 0.55)
        offer += market * (0.005 + 0.01 * random()); // creep
      else offer += market * 0.15 * random(); // jump
    }
    const price = cheapestAlong(context, offers);
    if (price !== null && (best === null || price < best)) best = price;
  }
  return best;
}

/**
 * The prober: over `sessions` sessions (each abandoned after learning the seller's counters,
 * a cool-down apart) it plays ramps of every shape, then, in one more session, replays the ramp
 * that reached the lowest counter and, one round later, offers that counter less the smallest
 * step — taking whatever the seller then offers.
 */
export function proberPrice(context: SellerContext): { price: number | null; sessions: number } {
  const market = context.marketCents;
  const ramps: number[][] = [];
  for (const lo of [0.45, 0.55, 0.65, 0.75])
    for (const hi of [0.7, 0.8, 0.9, 1])
      for (const exponent of [0.5, 1, 3])
        ramps.push(
          Array.from(
            { length: MAX_ROUNDS - 1 },
            (_, i) => market * (lo + (hi - lo) * (i / (MAX_ROUNDS - 2)) ** exponent),
          ),
        );
  let best: { price: number; ramp: number[]; round: number } | null = null;
  for (const ramp of ramps) {
    const negotiation = new Negotiation(context);
    for (const [i, offer] of ramp.entries()) {
      const reply = negotiation.offer(Math.round(offer));
      const price = reply.dealCents ?? reply.counterCents;
      if (price !== null && (best === null || price < best.price))
        best = { price, ramp, round: i + 1 };
      if (reply.action !== 'counter') break;
    }
  }
  if (best === null) return { price: null, sessions: ramps.length };
  // Exploit: the same offers up to the best counter, then that counter less a step.
  const offers = best.ramp.slice(0, best.round).map(Math.round);
  const game = new LocalGame(context);
  for (const offer of offers) game.offerNow(offer);
  let price = best.price;
  if (best.round < MAX_ROUNDS && game.outcome().priceCents === null) {
    const reply = game.offerNow(best.price - Math.max(1, Math.floor(market / 200)));
    if (reply.action === 'accept') price = Math.min(price, game.outcome().priceCents ?? price);
    else if (reply.counterCents !== null) price = Math.min(price, reply.counterCents);
  }
  return { price, sessions: ramps.length + 1 };
}

/**
 * The lowest price a buyer who knows the floor and the whole algorithm can get: for every
 * round and every target price it replays a ramp of rising offers ending at the target, and
 * keeps the cheapest deal (the seller's acceptance, or its counter taken).
 */
export function whiteBoxPrice(context: SellerContext, stepFraction: number): number {
  const market = context.marketCents;
  const step = Math.max(1, Math.floor(market * stepFraction));
  let best = context.openingAskCents;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    for (const start of [0.5, 0.7]) {
      for (let target = context.floorCents; target < best; target += step) {
        const offers = Array.from({ length: round }, (_, i) =>
          i === round - 1 ? target : market * start + ((target - market * start) * (i + 1)) / round,
        );
        const price = cheapestAlong(context, offers);
        if (price !== null && price < best) best = price;
      }
    }
  }
  return best;
}
