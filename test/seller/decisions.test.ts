import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastCounter, MAX_ROUNDS, respondToOffer } from '../../src/seller/index.js';
import { arbitraryGame, contextFor, play } from '../helpers/seller.js';

/**
 * The seller's decisions round by round: never below the floor, asks that only fall, the final
 * rounds, and the objections that end a negotiation. (tactics.test.ts: what no tactic wins.)
 */
describe('seller', () => {
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

    it('should report what it objects to and how many strikes are left', () => {
      const ctx = contextFor(5000, 10);
      const insults = play(ctx, [1000, 1000]);
      expect(insults[0]).toMatchObject({ objection: 'insult', strikesLeft: 1, final: false });
      expect(insults[1]).toMatchObject({
        objection: 'insult',
        strikesLeft: 0,
        outcome: 'rejected',
      });
      const retreats = play(ctx, [3500, 3400, 3600, 3300]);
      expect(retreats[0]).toMatchObject({ objection: 'none', strikesLeft: null });
      expect(retreats[1]).toMatchObject({ objection: 'retreat', strikesLeft: 1 });
      expect(retreats[2]).toMatchObject({ objection: 'none' });
      expect(retreats[3]).toMatchObject({
        objection: 'retreat',
        strikesLeft: 0,
        outcome: 'rejected',
      });
      expect(play(ctx, [3000, 3000])[1]).toMatchObject({ objection: 'stall', strikesLeft: null });
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
});
