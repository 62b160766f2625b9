import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  formatCredits,
  lastCounter,
  MAX_ROUNDS,
  openingMessage,
  respondToOffer,
  sellerTerms,
  type PastRound,
  type SellerContext,
  type SellerReply,
} from '../../src/seller/index.js';

const SECRET = 'a-test-secret-of-some-length';

function contextFor(
  marketCents: number,
  stock: number,
  sessionId = 'session-1',
  category = CATEGORIES[0],
): SellerContext {
  const terms = sellerTerms(
    {
      productId: `product-${marketCents}-${stock}`,
      category: category ?? 'Books',
      marketCents,
      stock,
    },
    SECRET,
  );
  return { sessionId, productName: 'Linen Tea Towels', marketCents, ...terms };
}

/** Plays `offers` until the seller ends the negotiation; returns every reply. */
function play(ctx: SellerContext, offers: number[]): SellerReply[] {
  const history: PastRound[] = [];
  const replies: SellerReply[] = [];
  for (const offer of offers.slice(0, MAX_ROUNDS)) {
    const reply = respondToOffer(ctx, history, offer);
    replies.push(reply);
    if (reply.action !== 'counter') break;
    history.push({ offerCents: offer, counterCents: reply.counterCents });
  }
  return replies;
}

const pricesIn = (message: string) => [...message.matchAll(/\d+\.\d{2}/g)].map((match) => match[0]);

const arbitraryGame = fc.record({
  marketCents: fc.integer({ min: 200, max: 9500 }),
  stock: fc.integer({ min: 0, max: 40 }),
  category: fc.constantFrom(...CATEGORIES),
  sessionId: fc.uuid(),
  offers: fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: MAX_ROUNDS }),
});

describe('seller', () => {
  describe('terms', () => {
    it('should keep the floor between 55 % and 90 % of market and below the opening ask', () => {
      for (const category of CATEGORIES) {
        for (const stock of [0, 2, 10, 35]) {
          for (let market = 200; market <= 9500; market += 331) {
            const { floorCents, openingAskCents } = sellerTerms(
              { productId: `p${market}`, category, marketCents: market, stock },
              SECRET,
            );
            expect(floorCents).toBeGreaterThanOrEqual(Math.ceil(market * 0.55));
            expect(floorCents).toBeLessThanOrEqual(Math.ceil(market * 0.9));
            expect(openingAskCents).toBe(stock <= 3 ? Math.ceil((market * 105) / 100) : market);
          }
        }
      }
    });

    it('should derive the floor from the product and the secret only', () => {
      const facts = { productId: 'p', category: 'Books' as const, marketCents: 5000, stock: 10 };
      expect(sellerTerms(facts, SECRET)).toEqual(sellerTerms({ ...facts }, SECRET));
      const floors = new Set(
        Array.from({ length: 20 }, (_, i) => sellerTerms(facts, `${SECRET}-${i}`).floorCents),
      );
      expect(floors.size).toBeGreaterThan(1);
    });
  });

  describe('decisions', () => {
    it('should never counter or deal below the floor, whatever the offers (10,000 sequences)', () => {
      fc.assert(
        fc.property(arbitraryGame, ({ marketCents, stock, category, sessionId, offers }) => {
          const ctx = contextFor(marketCents, stock, sessionId, category);
          for (const reply of play(ctx, offers)) {
            if (reply.counterCents !== null)
              expect(reply.counterCents).toBeGreaterThanOrEqual(ctx.floorCents);
            if (reply.dealCents !== null)
              expect(reply.dealCents).toBeGreaterThanOrEqual(ctx.floorCents);
          }
        }),
        { numRuns: 10_000 },
      );
    });

    it('should never raise its ask and keep every counter above the offer it answers', () => {
      fc.assert(
        fc.property(arbitraryGame, ({ marketCents, stock, category, sessionId, offers }) => {
          const ctx = contextFor(marketCents, stock, sessionId, category);
          let ask = ctx.openingAskCents;
          play(ctx, offers).forEach((reply, i) => {
            if (reply.counterCents === null) return;
            expect(reply.counterCents).toBeLessThanOrEqual(ask);
            expect(reply.counterCents).toBeGreaterThan(offers[i] ?? 0);
            ask = reply.counterCents;
          });
        }),
        { numRuns: 2_000 },
      );
    });

    it('should give identical replies to the same session id and the same offers', () => {
      fc.assert(
        fc.property(arbitraryGame, ({ marketCents, stock, category, sessionId, offers }) => {
          const ctx = contextFor(marketCents, stock, sessionId, category);
          expect(JSON.stringify(play(ctx, offers))).toBe(
            JSON.stringify(play({ ...ctx }, [...offers])),
          );
        }),
        { numRuns: 1_000 },
      );
    });

    it('should accept any offer at or above its current ask, at the offered price', () => {
      const ctx = contextFor(4000, 10);
      const reply = respondToOffer(ctx, [], ctx.openingAskCents + 50);
      expect(reply).toMatchObject({
        action: 'accept',
        outcome: 'accepted',
        dealCents: ctx.openingAskCents + 50,
        counterCents: null,
        final: true,
      });
    });

    it("should mark round 9's counter final and end round 10 by acceptance or expiry, never a counter", () => {
      const ctx = contextFor(5000, 10);
      const patient = Array.from({ length: MAX_ROUNDS }, (_, i) => 2250 + i * 50); // 45 % → 54 %
      const replies = play(ctx, patient);
      expect(replies).toHaveLength(MAX_ROUNDS);
      replies.slice(0, 8).forEach((reply) => {
        expect(reply).toMatchObject({ action: 'counter', final: false });
      });
      expect(replies[8]).toMatchObject({ action: 'counter', final: true, round: 9, roundsLeft: 1 });
      expect(replies[8]?.message).toMatch(/final|last/i);
      expect(replies[9]).toMatchObject({
        action: 'reject',
        outcome: 'expired',
        counterCents: null,
        round: 10,
        roundsLeft: 0,
        final: true,
      });

      fc.assert(
        fc.property(fc.integer({ min: 1, max: 12_000 }), (last) => {
          const history = patient.slice(0, 9).map((offer, i) => ({
            offerCents: offer,
            counterCents: replies[i]?.counterCents ?? null,
          }));
          const reply = respondToOffer(ctx, history, last);
          expect(reply.action).not.toBe('counter');
          expect(reply.round).toBe(MAX_ROUNDS);
        }),
      );
    });

    it('should end the negotiation on the second insulting offer (below 40 % of market)', () => {
      const ctx = contextFor(5000, 10);
      const [first, second] = play(ctx, [1999, 1999]);
      expect(first).toMatchObject({ action: 'counter', counterCents: ctx.openingAskCents });
      expect(second).toMatchObject({ action: 'reject', outcome: 'rejected', final: true });
      expect(play(ctx, [2000, 2000])[1]?.action).toBe('counter');
    });

    it('should end the negotiation on the second retreat and hold its ask on the first', () => {
      const ctx = contextFor(5000, 10);
      const replies = play(ctx, [3500, 3600, 3400, 3700, 3300]);
      expect(replies[2]).toMatchObject({
        action: 'counter',
        counterCents: replies[1]?.counterCents,
      });
      expect(replies[4]).toMatchObject({ action: 'reject', outcome: 'rejected' });
    });

    it('should hold its ask after two offers in a row that do not move', () => {
      const ctx = contextFor(5000, 10);
      const replies = play(ctx, [3000, 3000, 3000, 3000]);
      expect(replies[2]?.counterCents).toBe(replies[1]?.counterCents);
      expect(replies[3]?.counterCents).toBe(replies[1]?.counterCents);
    });

    it('should not keep the credit of a high offer once the buyer drops back', () => {
      const ctx = contextFor(5000, 10, 'session-drop');
      const steady = play(ctx, [3000, 3100, 3200, 3300, 3400, 3500, 3600]);
      const spiked = play(ctx, [3000, 3100, 3200, 4400, 3400, 3500, 3600]);
      // The spike earned a lower counter in its own round, and asks never rise again; but the
      // rounds after the drop concede only what the current, lower offers earn.
      const spikeCounter = spiked[3]?.counterCents ?? 0;
      expect(spikeCounter).toBeLessThan(steady[3]?.counterCents ?? 0);
      for (const round of [4, 5, 6]) {
        expect(spiked[round]?.counterCents).toBeGreaterThanOrEqual(
          Math.min(spikeCounter, steady[round]?.counterCents ?? Infinity),
        );
      }
    });

    it('should report the latest counter of a history', () => {
      expect(lastCounter([])).toBeNull();
      expect(
        lastCounter([
          { offerCents: 1, counterCents: 900 },
          { offerCents: 2, counterCents: null },
        ]),
      ).toBe(900);
    });
  });

  describe('messages', () => {
    it('should greet with the market price and the opening ask', () => {
      const ctx = contextFor(4550, 2);
      const greeting = openingMessage(ctx);
      expect(greeting).toContain(formatCredits(ctx.marketCents));
      expect(greeting).toContain(formatCredits(ctx.openingAskCents));
      expect(greeting.length).toBeLessThanOrEqual(240);
    });

    it('should state only prices of the structured fields, never the floor, with no placeholder, within 240 characters', () => {
      fc.assert(
        fc.property(arbitraryGame, ({ marketCents, stock, category, sessionId, offers }) => {
          const ctx = contextFor(marketCents, stock, sessionId, category);
          const replies = play(ctx, offers);
          replies.forEach((reply, i) => {
            expect(reply.message.length).toBeLessThanOrEqual(240);
            expect(reply.message).not.toMatch(/[{}]|undefined|NaN|null/);
            const allowed = new Set(
              [reply.counterCents, reply.dealCents, offers[i] ?? null]
                .filter((c) => c !== null)
                .map((c) => formatCredits(c)),
            );
            for (const price of pricesIn(reply.message)) expect(allowed).toContain(price);
            if (reply.counterCents !== null)
              expect(pricesIn(reply.message)).toContain(formatCredits(reply.counterCents));
            if (reply.dealCents !== null)
              expect(pricesIn(reply.message)).toContain(formatCredits(reply.dealCents));
          });
        }),
        { numRuns: 2_000 },
      );
    });

    it('should vary its words between sessions and between rounds', () => {
      const offers = [3000, 3200, 3400, 3600, 3800];
      const bySession = new Set(
        Array.from(
          { length: 12 },
          (_, i) => play(contextFor(5000, 10, `s-${i}`), offers)[2]?.message,
        ),
      );
      expect(bySession.size).toBeGreaterThan(6);
      const rounds = play(contextFor(5000, 10, 's-rounds'), offers).map((reply) => reply.message);
      expect(new Set(rounds).size).toBe(rounds.length);
    });

    it('should format cents as credits with two decimals', () => {
      expect(formatCredits(0)).toBe('0.00');
      expect(formatCredits(5)).toBe('0.05');
      expect(formatCredits(1234)).toBe('12.34');
      expect(formatCredits(10_000)).toBe('100.00');
    });
  });
});
