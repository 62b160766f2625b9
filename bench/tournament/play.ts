import {
  CATEGORIES,
  MAX_ROUNDS,
  Negotiation,
  sellerTerms,
  type Category,
  type SellerContext,
} from '../../src/seller/index.js';
import { gridBuyers, scriptedBuyers, type Buyer, type Group } from './buyers.js';
import { LocalGame, type Outcome } from './game.js';

export interface TournamentProduct {
  id: string;
  name: string;
  category: Category;
  marketCents: number;
  stock: number;
}

export interface Row {
  buyer: string;
  group: Group | 'grid-best' | 'search' | 'prober';
  games: number;
  deals: number;
  dealRate: number;
  /** Mean discount on deals, % of market. */
  meanDiscount: number;
  /** The largest discount of any one deal, % of market. */
  maxDiscount: number;
  /** Mean (price − floor) / window on deals. */
  meanSurplus: number;
  meanRounds: number;
}

export interface CategoryRow {
  category: Category;
  dealRate: number;
  meanDiscount: number;
  meanSurplus: number;
  /** The best reasonable buyer's mean discount in this category. */
  bestReasonable: number;
  /** The prober's mean discount in this category. */
  prober: number;
}

export interface TournamentResult {
  products: number;
  rows: Row[];
  categories: CategoryRow[];
  whiteBox: { worstSurplus: number; meanSurplus: number; meanDiscount: number };
  /** Best of 3 sessions of the same player vs one, per reasonable buyer (worst buyer). */
  retryGain: number;
  /** Best of 3 new players vs one. */
  newPlayerGain: number;
  skillGradient: number;
  bestReasonable: number;
  randomSequences: number;
  probeSessions: number;
}

export interface TournamentOptions {
  secret: string;
  /** Fewer grid buyers and a coarser white-box search, for CI. */
  quick: boolean;
  /** Random offer sequences tried per product by the random-search buyer. */
  randomSequences?: number;
}

interface Game {
  product: TournamentProduct;
  context: SellerContext;
  outcome: Outcome;
}

/**
 * The seller's view of `playerId` negotiating for `product`, as the server builds it: the
 * player's own hidden terms, raised by `earlierDeals`, moved by `demand` (% of market).
 */
export function sellerContext(
  product: TournamentProduct,
  sessionId: string,
  secret: string,
  playerId: string,
  { earlierDeals = 0, demand = 0 } = {},
): SellerContext {
  const terms = sellerTerms(
    {
      productId: product.id,
      category: product.category,
      marketCents: product.marketCents,
      stock: product.stock,
    },
    { playerId, earlierDeals },
    demand,
    secret,
  );
  return {
    sessionId,
    playerId,
    productId: product.id,
    secret,
    productName: product.name,
    marketCents: product.marketCents,
    floorCents: terms.floorCents,
    openingAskCents: terms.openingAskCents,
  };
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
const discountOf = (game: Game) =>
  ((game.context.marketCents - (game.outcome.priceCents ?? 0)) * 100) / game.context.marketCents;
const surplusOf = (game: Game) =>
  ((game.outcome.priceCents ?? 0) - game.context.floorCents) /
  (game.context.openingAskCents - game.context.floorCents);

export function summarise(buyer: string, group: Row['group'], games: Game[]): Row {
  const deals = games.filter((game) => game.outcome.priceCents !== null);
  const discounts = deals.map(discountOf);
  return {
    buyer,
    group,
    games: games.length,
    deals: deals.length,
    dealRate: deals.length / Math.max(1, games.length),
    meanDiscount: mean(discounts),
    maxDiscount: discounts.length === 0 ? 0 : Math.max(...discounts),
    meanSurplus: mean(deals.map(surplusOf)),
    meanRounds: mean(games.map((game) => game.outcome.rounds)),
  };
}

async function playAll(
  buyer: Buyer,
  products: readonly TournamentProduct[],
  secret: string,
  { session = '', player = '' } = {},
): Promise<Game[]> {
  const games: Game[] = [];
  for (const product of products) {
    const context = sellerContext(
      product,
      `${buyer.name}:${product.id}${session}`,
      secret,
      `player:${buyer.name}${player}`,
    );
    const game = new LocalGame(context);
    await buyer.play(game);
    games.push({ product, context, outcome: game.outcome() });
  }
  return games;
}

/** A small deterministic generator (mulberry32), so every run searches the same sequences. */
export function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

export async function runTournament(
  products: readonly TournamentProduct[],
  options: TournamentOptions,
): Promise<TournamentResult> {
  const secret = options.secret;
  const rows: Row[] = [];
  const gamesByBuyer = new Map<string, Game[]>();
  for (const buyer of scriptedBuyers) {
    const games = await playAll(buyer, products, secret);
    gamesByBuyer.set(buyer.name, games);
    rows.push(summarise(buyer.name, buyer.group, games));
  }

  // The grid optimiser keeps the polynomial buyer with the most discount per game played.
  let bestGrid: { buyer: Buyer; games: Game[]; utility: number } | null = null;
  for (const buyer of gridBuyers(options.quick)) {
    const games = await playAll(buyer, products, secret);
    const utility = mean(
      games.map((game) => (game.outcome.priceCents === null ? 0 : discountOf(game))),
    );
    if (bestGrid === null || utility > bestGrid.utility) bestGrid = { buyer, games, utility };
  }
  if (bestGrid !== null)
    rows.push(summarise(`grid-optimiser ${bestGrid.buyer.name}`, 'grid-best', bestGrid.games));

  const randomSequences = options.randomSequences ?? 2_000;
  const searched = products.map((product, p) => {
    const context = sellerContext(product, `random:${product.id}`, secret, 'player:random-search');
    return {
      product,
      context,
      outcome: { priceCents: randomSearchPrice(context, randomSequences, 1000 + p), rounds: 0 },
    };
  });
  rows.push(summarise(`random-search (${randomSequences} sequences)`, 'search', searched));

  let probeSessions = 0;
  const probed = products.map((product) => {
    const context = sellerContext(product, `prober:${product.id}`, secret, 'player:prober');
    const { price, sessions } = proberPrice(context);
    probeSessions = Math.max(probeSessions, sessions);
    return { product, context, outcome: { priceCents: price, rounds: 0 } };
  });
  rows.push(summarise('prober', 'prober', probed));

  const whiteBoxProducts = options.quick ? products.filter((_, i) => i % 4 === 0) : products;
  const whiteBox = whiteBoxProducts.map((product) => {
    const context = sellerContext(product, `white-box:${product.id}`, secret, 'player:white-box');
    const price = whiteBoxPrice(context, options.quick ? 0.01 : 0.005);
    return { context, product, outcome: { priceCents: price, rounds: 0 } };
  });

  // Retrying: the best of three attempts per product against the first attempt alone, with
  // new sessions of the same player, and with new players.
  const reasonable = scriptedBuyers.filter((buyer) => buyer.group === 'reasonable');
  const gainOf = async (tags: { session?: string; player?: string }[]) => {
    const gains: number[] = [];
    for (const buyer of reasonable) {
      const attempts = await Promise.all(tags.map((tag) => playAll(buyer, products, secret, tag)));
      const bestOf = products.map((_, p) => {
        const dealt = attempts
          .map((games) => games[p])
          .filter((game): game is Game => game?.outcome.priceCents != null);
        return dealt.sort((a, b) => (a.outcome.priceCents ?? 0) - (b.outcome.priceCents ?? 0))[0];
      });
      const single = attempts[0] ?? [];
      gains.push(
        mean(bestOf.filter((game): game is Game => game !== undefined).map(discountOf)) -
          mean(single.filter((game) => game.outcome.priceCents !== null).map(discountOf)),
      );
    }
    return Math.max(...gains);
  };
  const retryGain = await gainOf([{}, { session: '#retry1' }, { session: '#retry2' }]);
  const newPlayerGain = await gainOf([{}, { player: '#2' }, { player: '#3' }]);

  const reasonableRows = rows.filter((row) => row.group === 'reasonable');
  const categories = CATEGORIES.map((category) => {
    const inCategory = (games: Game[]) =>
      games.filter((game) => game.product.category === category);
    const all = summarise(
      category,
      'reasonable',
      reasonable.flatMap((buyer) => inCategory(gamesByBuyer.get(buyer.name) ?? [])),
    );
    const best = Math.max(
      ...reasonableRows.map(
        (row) =>
          summarise(row.buyer, 'reasonable', inCategory(gamesByBuyer.get(row.buyer) ?? []))
            .meanDiscount,
      ),
    );
    return {
      category,
      dealRate: all.dealRate,
      meanDiscount: all.meanDiscount,
      meanSurplus: all.meanSurplus,
      bestReasonable: best,
      prober: summarise('prober', 'prober', inCategory(probed)).meanDiscount,
    };
  });

  const acceptAsk = rows.find((row) => row.buyer === 'accept-the-ask');
  const bestReasonable = Math.max(...reasonableRows.map((row) => row.meanDiscount));
  return {
    products: products.length,
    rows,
    categories,
    whiteBox: {
      worstSurplus: Math.min(...whiteBox.map(surplusOf)),
      meanSurplus: mean(whiteBox.map(surplusOf)),
      meanDiscount: mean(whiteBox.map(discountOf)),
    },
    retryGain,
    newPlayerGain,
    skillGradient: bestReasonable - (acceptAsk?.meanDiscount ?? 0),
    bestReasonable,
    randomSequences,
    probeSessions,
  };
}

export interface Criterion {
  name: string;
  ok: boolean;
  detail: string;
}

const percent = (value: number) => `${value.toFixed(1)} %`;

/** The bar of seller.md, criterion by criterion. */
export function checkBar(result: TournamentResult): Criterion[] {
  const scripted = result.rows;
  const failing = (rows: Row[], ok: (row: Row) => boolean, show: (row: Row) => string) => {
    const bad = rows.filter((row) => !ok(row));
    return {
      ok: bad.length === 0,
      detail:
        bad.length === 0
          ? `all ${rows.length} pass`
          : bad.map((row) => `${row.buyer}: ${show(row)}`).join('; '),
    };
  };
  const group = (...groups: Row['group'][]) => scripted.filter((row) => groups.includes(row.group));
  const reasonable = group('reasonable');
  const naive = group('naive', 'exploit');
  const best = result.bestReasonable;
  const worstOf = (rows: Row[]) =>
    rows.length === 0
      ? ''
      : ` (highest: ${rows.reduce((a, b) => (b.meanDiscount > a.meanDiscount ? b : a)).buyer} ${percent(Math.max(...rows.map((row) => row.meanDiscount)))}; best reasonable ${percent(best)})`;
  const waiting = group('waiting', 'search');
  return [
    {
      name: 'deal rate ≥ 20 % → mean surplus ≥ 0.25 W',
      ...failing(
        scripted.filter((row) => row.dealRate >= 0.2),
        (row) => row.meanSurplus >= 0.25,
        (row) => row.meanSurplus.toFixed(3),
      ),
    },
    {
      name: 'no scripted buyer averages > 25 % discount',
      ...failing(
        scripted,
        (row) => row.meanDiscount <= 25,
        (row) => percent(row.meanDiscount),
      ),
    },
    {
      name: 'white-box worst case ≥ 0.15 W',
      ok: result.whiteBox.worstSurplus >= 0.15,
      detail: result.whiteBox.worstSurplus.toFixed(3),
    },
    {
      name: 'reasonable buyers: ≥ 85 % deals',
      ...failing(
        reasonable,
        (row) => row.dealRate >= 0.85,
        (row) => percent(row.dealRate * 100),
      ),
    },
    {
      name: 'reasonable buyers: 8–18 % mean discount',
      ...failing(
        reasonable,
        (row) => row.meanDiscount >= 8 && row.meanDiscount <= 18,
        (row) => percent(row.meanDiscount),
      ),
    },
    {
      name: 'reasonable buyers: 6–9 mean rounds',
      ...failing(
        reasonable,
        (row) => row.meanRounds >= 6 && row.meanRounds <= 9,
        (row) => row.meanRounds.toFixed(1),
      ),
    },
    {
      name: 'naive and exploit scripts: ≤ 7 % discount or no deal',
      ...failing(
        naive,
        (row) => row.deals === 0 || row.meanDiscount <= 7,
        (row) => percent(row.meanDiscount),
      ),
    },
    {
      name: 'skill gradient ≥ 10 points',
      ok: result.skillGradient >= 10,
      detail: result.skillGradient.toFixed(1),
    },
    {
      // New players get new hidden terms by design (version 3): their best of three is reported,
      // and what one player can learn from others is held to the multi-player prober's bar.
      name: 'retry gain ≤ 1 point',
      ok: result.retryGain <= 1,
      detail: `same player, new sessions ${result.retryGain.toFixed(2)} (new players, each with their own terms: ${result.newPlayerGain.toFixed(2)})`,
    },
    {
      name: 'never-moving buyers: no deal above 12 % discount',
      ...(() => {
        const rows = scripted.filter(
          (row) =>
            row.group === 'constant' ||
            row.buyer === 'fixed-90%' ||
            row.buyer === 'lowball-and-wait',
        );
        const verdict = failing(
          rows,
          (row) => row.deals === 0 || row.maxDiscount <= 12,
          (row) => `a deal at ${percent(row.maxDiscount)}`,
        );
        const worst = Math.max(...rows.map((row) => (row.deals === 0 ? 0 : row.maxDiscount)));
        return { ...verdict, detail: `${verdict.detail} (largest: ${percent(worst)})` };
      })(),
    },
    {
      name: 'wait-then-jump, creeper, random search: ≤ best reasonable + 1 point',
      ...(() => {
        const verdict = failing(
          waiting,
          (row) => row.meanDiscount <= best + 1,
          (row) => percent(row.meanDiscount),
        );
        return { ...verdict, detail: verdict.detail + worstOf(waiting) };
      })(),
    },
    {
      name: 'prober: ≤ best reasonable + 2 points in every category',
      ok: result.categories.every((row) => row.prober <= row.bestReasonable + 2),
      detail: result.categories
        .map((row) => `${row.category} ${percent(row.prober)} vs ${percent(row.bestReasonable)}`)
        .join('; '),
    },
  ];
}
