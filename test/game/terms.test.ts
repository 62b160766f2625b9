import { describe, expect, it } from 'vitest';
import { hourOf } from '../../src/seller/index.js';
import { testDialects } from '../helpers/databases.js';
import { cents, type ProductData, type TestPlayer } from '../helpers/game.js';
import { endCooldowns, haggleSuite, TIMED } from '../helpers/haggle.js';

/**
 * The terms of the game, version 3: a player's terms move with repeat purchases and with the
 * product's demand. (time-and-cap.test.ts: expiry, the cap and resuming.)
 */
describe.each(testDialects)('time, the cap and the terms of the game (%s)', (dialect) => {
  const game = haggleSuite(dialect, { env: TIMED, maxPrice: 40 });
  const { affordable } = game;

  describe('terms', () => {
    /** Six rising offers from 50 % of market, then the seller's counter taken. */
    async function buyWithSameOffers(player: TestPlayer, item: ProductData) {
      const started = await game.client.start(player, item.id);
      expect(started.status).toBe(201);
      const id = started.body.data.id;
      let counter = 0;
      for (let i = 0; i < 6; i++) {
        const offer = await game.client.offer(
          player,
          id,
          Math.floor(item.market_price * (50 + 3 * i)) / 100,
        );
        expect(offer.body.data.seller_response.action).toBe('counter');
        counter = offer.body.data.seller_response.counter_offer ?? 0;
      }
      const deal = await game.client.accept(player, id);
      expect(deal.status).toBe(200);
      return { price: counter, floor: (await game.sessionRow(id)).floor_cents };
    }

    it('should make a second purchase with the same offers cost more than the first', async () => {
      const player = await game.client.newPlayer('again');
      const item =
        game.products.find((candidate) => candidate.category === 'Food & Drink') ?? affordable(0);
      const first = await buyWithSameOffers(player, item);
      const second = await buyWithSameOffers(player, item);
      expect(second.price).toBeGreaterThan(first.price);
      expect(second.floor - first.floor).toBeGreaterThanOrEqual(
        Math.floor(cents(item.market_price) * 0.03),
      );
    });

    it('should count each sale in the product row and show high demand after several', async () => {
      const item = affordable(4);
      const before = await game.t.store.db
        .selectFrom('products')
        .select(['sale_hour', 'sales_this_hour'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      const player = await game.client.newPlayer('demand');
      await buyWithSameOffers(player, item);
      const after = await game.t.store.db
        .selectFrom('products')
        .select(['sale_hour', 'sales_this_hour', 'sales_hour_before'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      const hour = hourOf(new Date().toISOString());
      expect(after.sale_hour).toBe(hour);
      expect(after.sales_this_hour).toBe(
        before.sale_hour === hour ? before.sales_this_hour + 1 : 1,
      );

      await game.t.store.db
        .updateTable('products')
        .set({ sale_hour: hour, sales_this_hour: 4, sales_hour_before: 0 })
        .where('id', '=', item.id)
        .execute();
      const read = await game.client.get<ProductData>(`/api/products/${item.id}`, player);
      expect(read.body.data.demand).toBe('high');
      // Firmer for everyone: a new player's floor is 4 % of market above their own draw.
      const newcomer = await game.client.newPlayer('firm');
      const started = await game.client.start(newcomer, item.id);
      const firm = (await game.sessionRow(started.body.data.id)).floor_cents;
      await game.t.store.db
        .updateTable('products')
        .set({ sale_hour: hour - 1, sales_this_hour: 0, sales_hour_before: 0 })
        .where('id', '=', item.id)
        .execute();
      await game.client.post('/api/haggle/abandon', { session_id: started.body.data.id }, newcomer);
      await endCooldowns(game.t, newcomer.id);
      const calm = await game.client.start(newcomer, item.id);
      const plain = (await game.sessionRow(calm.body.data.id)).floor_cents;
      const fourPercent = cents(item.market_price) * 0.04;
      expect(Math.abs(firm - plain - fourPercent)).toBeLessThanOrEqual(1);
    });
  });
});
