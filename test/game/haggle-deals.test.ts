import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/http/secrets.js';
import {
  abandonAnswer,
  acceptAnswer,
  offerAnswer,
  startAnswer,
} from '../../src/modules/haggle/haggle.service.js';
import { STARTING_CREDITS_CENTS } from '../../src/modules/players/players.service.js';
import { testDialects } from '../helpers/databases.js';
import { cents } from '../helpers/game.js';
import { haggleSuite } from '../helpers/haggle.js';

/** Ending a negotiation: a deal at the offer or the counter, abandoning, and what follows the end. */
describe.each(testDialects)('haggle (%s)', (dialect) => {
  const game = haggleSuite(dialect, { maxPrice: 90, checkBooks: true });
  const { affordable, openSession, readProducts, setCredits } = game;

  describe('happy', () => {
    it('should accept an offer at or above the ask and make the deal at the offered price', async () => {
      const player = await game.client.newPlayer();
      const product = affordable(1);
      const session = await openSession(player, product);
      const greeting = (await game.client.session(player, session.id)).body.data.messages[0];
      const ask = greeting?.offer_amount ?? 0;
      const { body } = await game.client.offer(player, session.id, ask);
      expect(body.data.seller_response).toMatchObject({ action: 'accept', counter_offer: null });
      expect(body.data.session).toMatchObject({
        status: 'accepted',
        final_price: ask,
        rounds_count: 1,
      });
      expect(body.data.session.ended_at).not.toBeNull();
      expect(body.data.product.stock_quantity).toBe(product.stock_quantity - 1);
      const me = await game.client.get<{
        credits: number;
        total_spent: number;
        total_market_value: number;
      }>(`/api/players/${player.id}`, player);
      expect(cents(me.body.data.credits)).toBe(STARTING_CREDITS_CENTS - cents(ask));
      expect(me.body.data.total_market_value).toBe(product.market_price);
      const transactions = await game.client.get<
        { session_id: string; final_price: number; savings: number }[]
      >(`/api/transactions?player_id=${player.id}`, player);
      expect(transactions.body.data).toEqual([
        expect.objectContaining({
          session_id: session.id,
          final_price: ask,
          savings: (cents(product.market_price) - cents(ask)) / 100,
        }),
      ]);
      // The offer's answer carries that deal, as accept's does.
      expect(transactions.body.data).toEqual([body.data.transaction]);
      await readProducts();
    });

    it("should accept the seller's counter-offer and charge exactly that", async () => {
      const player = await game.client.newPlayer();
      const product = affordable(2);
      const session = await openSession(player, product);
      const countered = await game.client.offer(
        player,
        session.id,
        Math.floor(product.market_price * 70) / 100,
      );
      const counter = countered.body.data.seller_response.counter_offer ?? 0;
      const { status, body } = await game.client.accept(player, session.id);
      expect(status).toBe(200);
      expect(body.data.session).toMatchObject({ status: 'accepted', final_price: counter });
      expect(body.data.transaction).toMatchObject({
        session_id: session.id,
        final_price: counter,
        market_price: product.market_price,
        status: 'completed',
      });
      expect(cents(body.data.new_credits)).toBe(STARTING_CREDITS_CENTS - cents(counter));
      expect(cents(body.data.savings)).toBe(cents(product.market_price) - cents(counter));
      await readProducts();
    });

    it('should abandon a session without costing anything', async () => {
      const player = await game.client.newPlayer();
      const session = await openSession(player);
      await game.client.offer(player, session.id, Math.floor(affordable().market_price * 60) / 100);
      const { status, body } = await game.client.post<{ session: { status: string } }>(
        '/api/haggle/abandon',
        { session_id: session.id },
        player,
      );
      expect(status).toBe(200);
      expect(body.data.session.status).toBe('abandoned');
      expect(
        (await game.client.get<{ credits: number }>(`/api/players/${player.id}`, player)).body.data
          .credits,
      ).toBe(100);
    });
  });

  describe('errors', () => {
    it('should refuse a start or turn taken with a key replaced since it was checked, changing nothing', async () => {
      const player = await game.client.newPlayer();
      const product = affordable(3);
      const other = affordable(4);
      const session = await openSession(player, product);
      await game.client.offer(player, session.id, Math.floor(product.market_price * 70) / 100);
      const rotated = await game.client.post<{ api_key: string }>(
        `/api/players/${player.id}/rotate-key`,
        {},
        player,
      );
      expect(rotated.status).toBe(200);
      // Authenticated with the old key just before the rotation committed: the turn finds the
      // key replaced once it holds the lock.
      const { t } = game;
      const deps = {
        store: t.store,
        sellerSecret: 'any',
        cooldownMinutes: t.config.haggleCooldownMinutes,
        idleMinutes: t.config.haggleIdleMinutes,
        maxActive: t.config.haggleMaxActive,
      };
      const stale = { playerId: player.id, keyHash: sha256Hex(player.key) };
      for (const turn of [
        () => acceptAnswer(deps, stale, session.id, 'http://localhost'),
        () => offerAnswer(deps, stale, { session_id: session.id, offer_amount: 1 }, 'http://x'),
        () => abandonAnswer(deps, stale, session.id),
        () => startAnswer(deps, stale, { player_id: player.id, product_id: other.id }, 'http://x'),
      ]) {
        await expect(turn()).rejects.toMatchObject({ code: 'unauthorized' });
      }
      const current = {
        ...player,
        key: rotated.body.data.api_key,
        auth: { authorization: `Bearer ${rotated.body.data.api_key}` },
      };
      const after = await game.client.session(current, session.id);
      expect(after.body.data.session).toMatchObject({ status: 'active', rounds_count: 1 });
      const open = await game.client.get<{ items: unknown[] }>(
        '/api/haggle?status=active',
        current,
      );
      expect(open.body.data.items).toHaveLength(1);
      const me = await game.client.get<{ credits: number }>(`/api/players/${player.id}`, current);
      expect(cents(me.body.data.credits)).toBe(STARTING_CREDITS_CENTS);
      expect((await game.client.accept(current, session.id)).status).toBe(200);
    });

    it('should refuse to accept before any counter-offer with 409 no_counter_offer', async () => {
      const player = await game.client.newPlayer();
      const session = await openSession(player);
      const { status, body } = await game.client.accept(player, session.id);
      expect(status).toBe(409);
      expect(body.code).toBe('no_counter_offer');
    });

    it('should refuse to accept a counter the player cannot pay with 402 and change nothing', async () => {
      const player = await game.client.newPlayer();
      const product = affordable();
      const session = await openSession(player, product);
      const offer = await game.client.offer(
        player,
        session.id,
        Math.floor(product.market_price * 60) / 100,
      );
      await setCredits(player, 100);
      const { status, body } = await game.client.accept(player, session.id);
      expect(status).toBe(402);
      expect(body.code).toBe('insufficient_credits');
      // The sentence gives both amounts: the counter and what the player has.
      const counter = offer.body.data.seller_response.counter_offer ?? 0;
      expect(body.error).toBe(
        `The seller’s counter-offer is ${counter.toFixed(2)} credits and you have 1.00: you cannot pay it. Offer what you can instead, or walk away.`,
      );
      const detail = await game.client.session(player, session.id);
      expect(detail.body.data.session.status).toBe('active');
      expect(detail.body.data.messages).toHaveLength(3);
      await setCredits(player, STARTING_CREDITS_CENTS);
    });

    it('should refuse offers, accept and abandon once a session has ended', async () => {
      const player = await game.client.newPlayer();
      const session = await openSession(player);
      await game.client.post('/api/haggle/abandon', { session_id: session.id }, player);
      for (const result of [
        await game.client.offer(player, session.id, 10),
        await game.client.accept(player, session.id),
        await game.client.post('/api/haggle/abandon', { session_id: session.id }, player),
      ]) {
        expect(result.status).toBe(409);
        expect(result.body.code).toBe('session_not_active');
      }
    });
  });
});
