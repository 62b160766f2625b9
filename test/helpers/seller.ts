import fc from 'fast-check';
import {
  CATEGORIES,
  MAX_ROUNDS,
  respondToOffer,
  sellerTerms,
  type PastRound,
  type SellerContext,
  type SellerReply,
} from '../../src/seller/index.js';

/** The seller's secret in the tests of the seller alone (no database, no app). */
export const SECRET = 'a-test-secret-of-some-length';

/** A seller's whole context for one negotiation, its terms drawn as the game draws them. */
export function contextFor(
  marketCents: number,
  stock: number,
  sessionId = 'session-1',
  category = CATEGORIES[0],
  playerId = 'player-1',
): SellerContext {
  const productId = `product-${marketCents}-${stock}`;
  const terms = sellerTerms(
    { productId, category: category ?? 'Books', marketCents, stock },
    { playerId, earlierDeals: 0 },
    0,
    SECRET,
  );
  return {
    sessionId,
    playerId,
    productId,
    secret: SECRET,
    productName: 'Linen Tea Towels',
    marketCents,
    ...terms,
  };
}

/** Plays `offers` until the seller ends the negotiation; returns every reply. */
export function play(
  ctx: SellerContext,
  offers: number[],
  words: (string | null)[] = [],
): SellerReply[] {
  const history: PastRound[] = [];
  const replies: SellerReply[] = [];
  for (const [i, offer] of offers.slice(0, MAX_ROUNDS).entries()) {
    const playerMessage = words[i] ?? null;
    const reply = respondToOffer(ctx, history, offer, playerMessage);
    replies.push(reply);
    if (reply.action !== 'counter') break;
    history.push({ offerCents: offer, counterCents: reply.counterCents, playerMessage });
  }
  return replies;
}

/** A negotiation to play: a product, a session and up to ten offers in cents. */
export const arbitraryGame = fc.record({
  marketCents: fc.integer({ min: 200, max: 9500 }),
  stock: fc.integer({ min: 0, max: 40 }),
  category: fc.constantFrom(...CATEGORIES),
  sessionId: fc.uuid(),
  offers: fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: MAX_ROUNDS }),
});
