import { describe, expect, it } from 'vitest';
import { CATEGORIES, demandLevel, demandPercent, sellerTerms } from '../../src/seller/index.js';
import { SECRET } from '../helpers/seller.js';

/** A seller's terms: the floor and the opening ask, and what moves them. */
describe('seller', () => {
  describe('terms', () => {
    it('should keep the floor between 55 % and 90 % of market and below the opening ask', () => {
      for (const category of CATEGORIES) {
        for (const stock of [0, 2, 10, 35]) {
          for (let market = 200; market <= 9500; market += 331) {
            const { floorCents, openingAskCents } = sellerTerms(
              { productId: `p${market}`, category, marketCents: market, stock },
              { playerId: `player-${market}`, earlierDeals: 0 },
              0,
              SECRET,
            );
            expect(floorCents).toBeGreaterThanOrEqual(Math.ceil(market * 0.55));
            expect(floorCents).toBeLessThanOrEqual(Math.ceil(market * 0.9));
            expect(openingAskCents).toBe(stock <= 3 ? Math.ceil((market * 105) / 100) : market);
          }
        }
      }
    });

    it('should derive the floor from the player, the product and the secret only', () => {
      const facts = { productId: 'p', category: 'Books' as const, marketCents: 5000, stock: 10 };
      const buyer = { playerId: 'player-1', earlierDeals: 0 };
      expect(sellerTerms(facts, buyer, 0, SECRET)).toEqual(
        sellerTerms({ ...facts }, { ...buyer }, 0, SECRET),
      );
      const bySecret = new Set(
        Array.from(
          { length: 20 },
          (_, i) => sellerTerms(facts, buyer, 0, `${SECRET}-${i}`).floorCents,
        ),
      );
      expect(bySecret.size).toBeGreaterThan(1);
      const byPlayer = Array.from({ length: 20 }, (_, i) =>
        sellerTerms(facts, { playerId: `player-${i}`, earlierDeals: 0 }, 0, SECRET),
      ).map((terms) => terms.floorCents);
      expect(new Set(byPlayer).size).toBeGreaterThan(10);
      // Within the band: the category's base (Books 76 %) ± 6 % of market.
      for (const floor of byPlayer) {
        expect(floor).toBeGreaterThanOrEqual(Math.ceil(5000 * 0.7));
        expect(floor).toBeLessThanOrEqual(Math.ceil(5000 * 0.82));
      }
    });

    it("should raise a player's floor for each earlier deal on the product, up to a bound", () => {
      const facts = { productId: 'p', category: 'Fashion' as const, marketCents: 5000, stock: 10 };
      const [none, one, two, five, nine] = [0, 1, 2, 5, 9].map(
        (earlierDeals) =>
          sellerTerms(facts, { playerId: 'p1', earlierDeals }, 0, SECRET).floorCents,
      ) as [number, number, number, number, number];
      expect(one - none).toBe(150);
      expect(two - one).toBe(150);
      expect(nine).toBe(five);
      expect(nine).toBeLessThan(5000);
    });

    it('should move every floor with demand, bounded and from the stored sales alone', () => {
      const record = { saleHour: 100, salesThisHour: 2, salesHourBefore: 1, addedHour: 0 };
      expect(demandPercent(record, 100)).toBe(3);
      expect(demandPercent(record, 101)).toBe(2);
      expect(demandPercent(record, 102)).toBe(0);
      expect(demandPercent({ ...record, salesThisHour: 40 }, 100)).toBe(5);
      expect(demandPercent(record, 100 + 12)).toBe(-2);
      expect(demandPercent(record, 100 + 1000)).toBe(-5);
      expect(demandPercent({ ...record, saleHour: null }, 5)).toBe(0);
      expect(demandLevel(demandPercent(record, 100))).toBe('high');
      expect(demandLevel(demandPercent(record, 112))).toBe('low');
      const facts = { productId: 'p', category: 'Books' as const, marketCents: 5000, stock: 10 };
      const buyer = { playerId: 'p1', earlierDeals: 0 };
      const base = sellerTerms(facts, buyer, 0, SECRET).floorCents;
      expect(sellerTerms(facts, buyer, 5, SECRET).floorCents - base).toBe(250);
      expect(sellerTerms(facts, buyer, -5, SECRET).floorCents - base).toBe(-250);
    });
  });
});
