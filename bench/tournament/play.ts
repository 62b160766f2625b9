import {
  CATEGORIES,
  MAX_ROUNDS,
  respondToOffer,
  sellerTerms,
  type Category,
  type PastRound,
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
  group: Group | 'grid-best';
  games: number;
  deals: number;
  dealRate: number;
  /** Mean discount on deals, % of market. */
  meanDiscount: number;
  /** Mean (price − floor) / window on deals. */
  meanSurplus: number;
  meanRounds: number;
}

export interface CategoryRow {
  category: Category;
  dealRate: number;
  meanDiscount: number;
  meanSurplus: number;
}

export interface TournamentResult {
  products: number;
  rows: Row[];
  categories: CategoryRow[];
  whiteBox: { worstSurplus: number; meanSurplus: number; meanDiscount: number };
  retryGain: number;
  skillGradient: number;
}

export interface TournamentOptions {
  secret: string;
  /** Fewer grid buyers and a coarser white-box search, for CI. */
  quick: boolean;
}

interface Game {
  product: TournamentProduct;
  context: SellerContext;
  outcome: Outcome;
}

export function sellerContext(
  product: TournamentProduct,
  sessionId: string,
  secret: string,
): SellerContext {
  const terms = sellerTerms(
    {
      productId: product.id,
      category: product.category,
      marketCents: product.marketCents,
      stock: product.stock,
    },
    secret,
  );
  return {
    sessionId,
    productName: product.name,
    marketCents: product.marketCents,
    floorCents: terms.floorCents,
    openingAskCents: terms.openingAskCents,
  };
}

async function playGame(
  buyer: Buyer,
  product: TournamentProduct,
  sessionId: string,
  secret: string,
): Promise<Game> {
  const context = sellerContext(product, sessionId, secret);
  const game = new LocalGame(context);
  await buyer.play(game);
  return { product, context, outcome: game.outcome() };
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
  return {
    buyer,
    group,
    games: games.length,
    deals: deals.length,
    dealRate: deals.length / Math.max(1, games.length),
    meanDiscount: mean(deals.map(discountOf)),
    meanSurplus: mean(deals.map(surplusOf)),
    meanRounds: mean(games.map((game) => game.outcome.rounds)),
  };
}

async function playAll(
  buyer: Buyer,
  products: readonly TournamentProduct[],
  secret: string,
  tag = '',
): Promise<Game[]> {
  const games: Game[] = [];
  for (const product of products)
    games.push(await playGame(buyer, product, `${buyer.name}:${product.id}${tag}`, secret));
  return games;
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
        const history: PastRound[] = [];
        let price: number | null = null;
        for (let r = 1; r <= round && price === null; r++) {
          const offer =
            r === round
              ? target
              : Math.round(market * start + ((target - market * start) * r) / round);
          const reply = respondToOffer(context, history, Math.max(1, offer));
          if (reply.action === 'accept') price = offer;
          else if (reply.action !== 'counter') break;
          else if (r === round) price = reply.counterCents;
          history.push({ offerCents: offer, counterCents: reply.counterCents });
        }
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
  const rows: Row[] = [];
  const gamesByBuyer = new Map<string, Game[]>();
  for (const buyer of scriptedBuyers) {
    const games = await playAll(buyer, products, options.secret);
    gamesByBuyer.set(buyer.name, games);
    rows.push(summarise(buyer.name, buyer.group, games));
  }

  // The grid optimiser keeps the polynomial buyer with the most discount per game played.
  let bestGrid: { buyer: Buyer; games: Game[]; utility: number } | null = null;
  for (const buyer of gridBuyers(options.quick)) {
    const games = await playAll(buyer, products, options.secret);
    const utility = mean(
      games.map((game) => (game.outcome.priceCents === null ? 0 : discountOf(game))),
    );
    if (bestGrid === null || utility > bestGrid.utility) bestGrid = { buyer, games, utility };
  }
  if (bestGrid !== null)
    rows.push(summarise(`grid-optimiser ${bestGrid.buyer.name}`, 'grid-best', bestGrid.games));

  const whiteBoxProducts = options.quick ? products.filter((_, i) => i % 4 === 0) : products;
  const whiteBox = whiteBoxProducts.map((product) => {
    const context = sellerContext(product, `white-box:${product.id}`, options.secret);
    const price = whiteBoxPrice(context, options.quick ? 0.01 : 0.005);
    return { context, product, outcome: { priceCents: price, rounds: 0 } };
  });

  const reasonable = scriptedBuyers.filter((buyer) => buyer.group === 'reasonable');
  const retryGains: number[] = [];
  for (const buyer of reasonable) {
    const attempts = await Promise.all(
      [0, 1, 2].map((i) => playAll(buyer, products, options.secret, i === 0 ? '' : `#retry${i}`)),
    );
    const bestOf = products.map((_, p) => {
      const dealt = attempts
        .map((games) => games[p])
        .filter((game): game is Game => game?.outcome.priceCents != null);
      return dealt.sort((a, b) => (a.outcome.priceCents ?? 0) - (b.outcome.priceCents ?? 0))[0];
    });
    const single = attempts[0] ?? [];
    retryGains.push(
      mean(bestOf.filter((game): game is Game => game !== undefined).map(discountOf)) -
        mean(single.filter((game) => game.outcome.priceCents !== null).map(discountOf)),
    );
  }

  const reasonableGames = reasonable.flatMap((buyer) => gamesByBuyer.get(buyer.name) ?? []);
  const categories = CATEGORIES.map((category) => {
    const games = reasonableGames.filter((game) => game.product.category === category);
    const row = summarise(category, 'reasonable', games);
    return {
      category,
      dealRate: row.dealRate,
      meanDiscount: row.meanDiscount,
      meanSurplus: row.meanSurplus,
    };
  });

  const acceptAsk = rows.find((row) => row.buyer === 'accept-the-ask');
  const bestReasonable = Math.max(
    ...rows.filter((row) => row.group === 'reasonable').map((row) => row.meanDiscount),
  );
  return {
    products: products.length,
    rows,
    categories,
    whiteBox: {
      worstSurplus: Math.min(...whiteBox.map(surplusOf)),
      meanSurplus: mean(whiteBox.map(surplusOf)),
      meanDiscount: mean(whiteBox.map(discountOf)),
    },
    retryGain: Math.max(...retryGains),
    skillGradient: bestReasonable - (acceptAsk?.meanDiscount ?? 0),
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
        bad.length === 0 ? 'all pass' : bad.map((row) => `${row.buyer}: ${show(row)}`).join('; '),
    };
  };
  const reasonable = scripted.filter((row) => row.group === 'reasonable');
  const naive = scripted.filter((row) => row.group === 'naive' || row.group === 'exploit');
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
      name: 'retry gain ≤ 1 point',
      ok: result.retryGain <= 1,
      detail: result.retryGain.toFixed(2),
    },
  ];
}
