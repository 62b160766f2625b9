import {
  MAX_ROUNDS,
  movingStepCents,
  Negotiation,
  type SellerContext,
} from '../../src/seller/index.js';
import { sellerContext, type TournamentProduct } from './play.js';
import { proberPrice } from './searches.js';

/**
 * Version 3 of the bar: each (player, product) pair has its own hidden terms. These buyers and
 * measures ask whether the draws matter (oracle vs informed), whether skill still pays (informed
 * vs the reasonable scripts), whether other players' results transfer (multi-player prober),
 * how far apart players' prices are for the same offers, and whether buying again costs more.
 */

/** A plan: offers rising linearly from `start` to `target` (fractions of market) over `rounds`. */
export interface Plan {
  start: number;
  target: number;
  rounds: number;
}

/** Ramps of every steepness: from far below to just below the target, over 6 to 9 rounds. */
function plans(): Plan[] {
  const all: Plan[] = [];
  for (let t = 0.6; t <= 0.96; t += 0.0025) {
    const target = Math.round(t * 10000) / 10000;
    for (const rounds of [6, 7, 8, 9]) {
      const starts = [
        0.5,
        0.6,
        0.7,
        ...[0.0078, 0.0085, 0.0095].map((raise) => target - raise * rounds),
      ];
      for (const start of starts) if (start < target) all.push({ start, target, rounds });
    }
  }
  return all;
}
const PLANS = plans();

/** The plan's offers in whole cents, every raise the same number of cents. */
function offersOf(plan: Plan, market: number): number[] {
  const raise = Math.ceil((market * (plan.target - plan.start)) / plan.rounds);
  const first = Math.round(market * plan.start);
  return Array.from({ length: plan.rounds }, (_, i) => first + raise * (i + 1));
}

/**
 * Plays a plan: its offers in turn; a counter at or below the next planned offer is taken
 * (AC_next from the buyer's side); after the last planned offer, the seller's counter is taken
 * if it is at or below market. Returns the price, or null without a deal.
 */
export function playPlan(context: SellerContext, plan: Plan): number | null {
  const offers = offersOf(plan, context.marketCents);
  const negotiation = new Negotiation(context);
  for (const [i, offer] of offers.entries()) {
    const reply = negotiation.offer(Math.max(1, offer));
    if (reply.dealCents !== null) return reply.dealCents;
    if (reply.counterCents === null) return null;
    const next = offers[i + 1];
    if (next === undefined || reply.counterCents <= next)
      return reply.counterCents <= context.marketCents ? reply.counterCents : null;
  }
  return null;
}

const discount = (market: number, price: number | null) =>
  price === null ? 0 : ((market - price) * 100) / market;

/** The plan with the best mean discount over `contexts` (a deal-less game counts as 0). */
function bestPlan(contexts: readonly SellerContext[]): Plan {
  let best = PLANS[0] as Plan;
  let bestValue = -Infinity;
  for (const plan of PLANS) {
    let total = 0;
    for (const context of contexts) total += discount(context.marketCents, playPlan(context, plan));
    if (total > bestValue) {
      bestValue = total;
      best = plan;
    }
  }
  return best;
}

/** Stock classes the seller's terms tell apart, as the informed buyer knows from the code. */
const stockClass = (stock: number) => (stock <= 3 ? 2 : stock >= 30 ? 40 : 10);

/**
 * The informed buyer: it knows the algorithm and the public rules but not the draws. For each
 * category and stock class it imagines `samples` sellers, drawing their hidden terms with secrets
 * of its own (the distribution the code defines), and chooses the plan with the best mean
 * discount over them; then it plays that plan against the real seller.
 */
export function informedPlans(samples = 24): (product: TournamentProduct) => Plan {
  const chosen = new Map<string, Plan>();
  return (product) => {
    const key = `${product.category}/${stockClass(product.stock)}`;
    let plan = chosen.get(key);
    if (plan === undefined) {
      const typical: TournamentProduct = {
        id: `typical:${key}`,
        name: 'typical',
        category: product.category,
        marketCents: 5000,
        stock: stockClass(product.stock),
      };
      const imagined = Array.from({ length: samples }, (_, i) =>
        sellerContext({ ...typical, id: `${typical.id}:${i}` }, 'imagined', `imagined-${i}`, 'me'),
      );
      plan = bestPlan(imagined);
      chosen.set(key, plan);
    }
    return plan;
  };
}

/** The oracle: knows this player's draws, so chooses the best plan for the real seller. */
export const oraclePrice = (context: SellerContext): number | null =>
  playPlan(context, bestPlan([context]));

/**
 * The multi-player prober: `helpers` throwaway players probe the product with every ramp (in
 * parallel negotiations, as many as the cap allows); the player then plays the ramp that reached
 * the lowest price for any helper, and offers that price less a step. Its gain is measured
 * against the same prober using only its own probes.
 */
export function multiPlayerProberPrice(
  product: TournamentProduct,
  secret: string,
  playerId: string,
  helpers: number,
): number | null {
  let best: { price: number; helper: SellerContext } | null = null;
  for (let h = 0; h < helpers; h++) {
    const helper = sellerContext(product, `helper:${h}`, secret, `${playerId}:helper-${h}`);
    const { price } = proberPrice(helper);
    if (price !== null && (best === null || price < best.price)) best = { price, helper };
  }
  if (best === null) return null;
  // What the helpers found, tried by the player: the helper's best price, then creeping up to
  // it by the counted step from a step below, taking the seller's counter at the end if lower.
  const own = sellerContext(product, `main:${product.id}`, secret, playerId);
  const market = product.marketCents;
  const step = movingStepCents(market);
  const target = best.price - step;
  const offers = Array.from({ length: MAX_ROUNDS - 1 }, (_, i) =>
    Math.round(market * 0.6 + ((target - market * 0.6) * (i + 1)) / (MAX_ROUNDS - 1)),
  );
  const negotiation = new Negotiation(own);
  let counter: number | null = null;
  for (const offer of offers) {
    const reply = negotiation.offer(offer);
    if (reply.dealCents !== null) return reply.dealCents;
    if (reply.counterCents === null) return null;
    counter = reply.counterCents;
  }
  return counter !== null && counter <= market ? counter : null;
}

/** The same offers for every player: 60 → 88 % of market over nine rounds, no acceptance. */
export function sameOffersPrice(context: SellerContext): number {
  const market = context.marketCents;
  const negotiation = new Negotiation(context);
  let price = context.openingAskCents;
  for (let round = 1; round < MAX_ROUNDS; round++) {
    const reply = negotiation.offer(Math.round(market * (0.6 + (0.28 * (round - 1)) / 8)));
    if (reply.dealCents !== null) return reply.dealCents;
    if (reply.counterCents === null) return price;
    price = reply.counterCents;
  }
  return price;
}

/** Max − min of the same offers' price over `players` players, % of market, per product. */
export function priceSpread(
  products: readonly TournamentProduct[],
  secret: string,
  players: number,
): number {
  const spreads = products.map((product) => {
    const prices = Array.from({ length: players }, (_, p) =>
      sameOffersPrice(sellerContext(product, `spread:${p}`, secret, `player:spread-${p}`)),
    );
    return ((Math.max(...prices) - Math.min(...prices)) * 100) / product.marketCents;
  });
  return spreads.reduce((a, b) => a + b, 0) / Math.max(1, spreads.length);
}

/** Second purchase − first with the same offers, % of market, mean and share that cost more. */
export function repeatCost(
  products: readonly TournamentProduct[],
  secret: string,
): { meanIncrease: number; costlier: number; cheaper: number } {
  let total = 0;
  let costlier = 0;
  let cheaper = 0;
  for (const product of products) {
    const first = sameOffersPrice(sellerContext(product, 'first', secret, 'player:repeat'));
    const second = sameOffersPrice(
      sellerContext(product, 'second', secret, 'player:repeat', { earlierDeals: 1 }),
    );
    total += ((second - first) * 100) / product.marketCents;
    if (second > first) costlier += 1;
    if (second < first) cheaper += 1;
  }
  const n = Math.max(1, products.length);
  return { meanIncrease: total / n, costlier: costlier / n, cheaper: cheaper / n };
}

export interface HiddenTermsResult {
  informed: { dealRate: number; meanDiscount: number };
  oracle: { dealRate: number; meanDiscount: number };
  prober: { own: number; multi: number; gain: number };
  spread: number;
  repeat: { meanIncrease: number; costlier: number; cheaper: number };
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

function summary(prices: { market: number; price: number | null }[]) {
  const deals = prices.filter((p) => p.price !== null);
  return {
    dealRate: deals.length / Math.max(1, prices.length),
    meanDiscount: mean(deals.map((p) => discount(p.market, p.price))),
  };
}

export function hiddenTerms(
  products: readonly TournamentProduct[],
  secret: string,
  playerPrefix: string,
  { proberProducts = products } = {},
): HiddenTermsResult {
  const planFor = informedPlans();
  const informed: { market: number; price: number | null }[] = [];
  const oracle: { market: number; price: number | null }[] = [];
  for (const product of products) {
    const context = sellerContext(product, `v3:${product.id}`, secret, `${playerPrefix}informed`);
    informed.push({ market: product.marketCents, price: playPlan(context, planFor(product)) });
    oracle.push({ market: product.marketCents, price: oraclePrice(context) });
  }
  const own: { market: number; price: number | null }[] = [];
  const multi: { market: number; price: number | null }[] = [];
  for (const product of proberProducts) {
    const player = `${playerPrefix}prober`;
    const context = sellerContext(product, `main:${product.id}`, secret, player);
    own.push({ market: product.marketCents, price: proberPrice(context).price });
    multi.push({
      market: product.marketCents,
      price: multiPlayerProberPrice(product, secret, player, 5),
    });
  }
  const ownDiscount = summary(own).meanDiscount;
  const multiDiscount = summary(multi).meanDiscount;
  return {
    informed: summary(informed),
    oracle: summary(oracle),
    prober: { own: ownDiscount, multi: multiDiscount, gain: multiDiscount - ownDiscount },
    spread: priceSpread(products, secret, 6),
    repeat: repeatCost(products, secret),
  };
}
