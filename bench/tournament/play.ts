import {
  CATEGORIES,
  sellerTerms,
  type Category,
  type SellerContext,
} from '../../src/seller/index.js';
import { gridBuyers, scriptedBuyers, type Buyer, type Group } from './buyers.js';
import { LocalGame, type Outcome } from './game.js';
import { proberPrice, randomSearchPrice, whiteBoxPrice } from './searches.js';

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
