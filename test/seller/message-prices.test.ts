import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCredits, openingMessage } from '../../src/seller/index.js';
import { arbitraryGame, contextFor, play } from '../helpers/seller.js';

const pricesIn = (message: string) => [...message.matchAll(/\d+\.\d{2}/g)].map((match) => match[0]);

/** The prices in the seller's words. (messages.test.ts: the words against the numbers.) */
describe('seller', () => {
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
