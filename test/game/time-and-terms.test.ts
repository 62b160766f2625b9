import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourOf } from '../../src/seller/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import {
  cents,
  GameClient,
  type ProductData,
  type TestPlayer,
  UNLIMITED,
} from '../helpers/game.js';

const IDLE_MINUTES = 15;
const MAX_ACTIVE = 3;

/**
 * Version 3 of the game: idle negotiations expire, a player holds a limited number at once, a
 * start on an active negotiation resumes it, and a player's terms move with repeat purchases
 * and with the product's demand.
 */
describe.each(testDialects)('time, the cap and the terms of the game (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let products: ProductData[];

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      ...UNLIMITED,
      HAGGLE_IDLE_MINUTES: String(IDLE_MINUTES),
      HAGGLE_MAX_ACTIVE: String(MAX_ACTIVE),
    });
    client = new GameClient(t);
    products = (await client.inStockProducts()).filter((product) => product.market_price <= 40);
  });
  afterAll(() => t.close());

  const product = (index: number): ProductData => {
    const found = products[index % products.length];
    if (found === undefined) throw new Error('no affordable product seeded');
    return found;
  };

  /** Moves a session's last move back, as if that many minutes had passed without an offer. */
  async function idleFor(sessionId: string, minutes: number): Promise<string> {
    const lastMove = new Date(Date.now() - minutes * 60_000).toISOString();
    await t.store.db
      .updateTable('haggle_sessions')
      .set({ last_move_at: lastMove })
      .where('id', '=', sessionId)
      .execute();
    return lastMove;
  }

  /** `fraction` of the market price, in whole cents. */
  const share = (item: ProductData, fraction: number) =>
    Math.floor(item.market_price * fraction * 100) / 100;

  const row = (sessionId: string) =>
    t.store.db
      .selectFrom('haggle_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();

  const messageCount = async (sessionId: string) =>
    (
      await t.store.db
        .selectFrom('haggle_messages')
        .select('id')
        .where('session_id', '=', sessionId)
        .execute()
    ).length;

  describe('resume', () => {
    it('should return an active negotiation as it stands, never the greeting again', async () => {
      const player = await client.newPlayer('resume');
      const item = product(0);
      const first = await client.start(player, item.id);
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ resumed: false, rounds_count: 0 });
      expect(first.body.data.current_ask).toBe(first.body.data.opening_ask);
      const offer = await client.offer(player, first.body.data.id, share(item, 0.6));
      expect(offer.body.data.seller_response.action).toBe('counter');

      const again = await client.start(player, item.id);
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({
        id: first.body.data.id,
        resumed: true,
        rounds_count: 1,
        current_ask: offer.body.data.seller_response.counter_offer,
        opening_ask: first.body.data.opening_ask,
        initial_message: offer.body.data.seller_response.message,
      });
      expect(again.body.data.initial_message).not.toBe(first.body.data.initial_message);
    });
  });

  describe('idle expiry', () => {
    it('should expire a negotiation with no offer for the idle limit, write it once and start the cool-down', async () => {
      const player = await client.newPlayer('idle');
      const item = product(1);
      const started = await client.start(player, item.id);
      const id = started.body.data.id;
      const offer = await client.offer(player, id, share(item, 0.6));
      expect(offer.body.data.session.expires_at).not.toBeNull();
      const lastMove = await idleFor(id, IDLE_MINUTES + 1);
      const deadline = new Date(Date.parse(lastMove) + IDLE_MINUTES * 60_000).toISOString();

      // Readers show it expired before anything is written.
      const read = await client.session(player, id);
      expect(read.body.data.session).toMatchObject({
        status: 'expired',
        expires_at: null,
        ended_at: deadline,
      });
      const listed = await client.get<{ items: { id: string }[] }>(
        '/api/haggle?status=active',
        player,
      );
      expect(listed.body.data.items.map((item) => item.id)).not.toContain(id);
      const stats = await client.get<{ active_sessions: number; completed_sessions: number }>(
        `/api/players/${player.id}/stats`,
        player,
      );
      expect(stats.body.data).toMatchObject({ active_sessions: 0, completed_sessions: 1 });
      const expiredList = await client.get<{ items: { id: string; status: string }[] }>(
        '/api/haggle?status=expired',
        player,
      );
      expect(expiredList.body.data.items).toContainEqual(
        expect.objectContaining({ id, status: 'expired' }),
      );

      // Its counter can no longer be accepted, and no offer is taken: nothing half-written.
      const before = await messageCount(id);
      const accept = await client.accept(player, id);
      expect(accept.status).toBe(409);
      expect(accept.body).toMatchObject({ success: false, code: 'session_not_active' });
      expect(accept.body.error).toContain(`${IDLE_MINUTES} minutes`);
      const late = await client.offer(player, id, share(item, 0.7));
      expect(late.status).toBe(409);
      expect(await messageCount(id)).toBe(before);
      expect(await row(id)).toMatchObject({
        status: 'expired',
        ended_at: deadline,
        current_offer_cents: cents(offer.body.data.session.current_offer ?? 0),
      });

      // Expired counts as a no-deal ending: the cool-down runs from the deadline.
      const reopen = await client.start(player, item.id);
      expect(reopen.status).toBe(409);
      expect(reopen.body.code).toBe('cooling_down');
      expect(Number(reopen.response.headers['retry-after'])).toBeGreaterThan(0);
      const cooldown = await t.store.db
        .selectFrom('haggle_cooldowns')
        .select('until')
        .where('player_id', '=', player.id)
        .where('product_id', '=', item.id)
        .executeTakeFirstOrThrow();
      expect(cooldown.until).toBe(
        new Date(Date.parse(deadline) + t.config.haggleCooldownMinutes * 60_000).toISOString(),
      );
    });

    it('should keep a negotiation alive while offers come within the limit', async () => {
      const player = await client.newPlayer('alive');
      const item = product(2);
      const started = await client.start(player, item.id);
      const id = started.body.data.id;
      await idleFor(id, IDLE_MINUTES - 1);
      const offer = await client.offer(player, id, share(item, 0.6));
      expect(offer.status).toBe(200);
      expect(Date.parse(offer.body.data.session.expires_at ?? '')).toBeGreaterThan(
        Date.now() + (IDLE_MINUTES - 1) * 60_000,
      );
    });
  });

  describe('the cap on active negotiations', () => {
    it('should refuse one more than the cap, naming the limit, and count idle ones as ended', async () => {
      const player = await client.newPlayer('cap');
      const ids: string[] = [];
      for (let i = 0; i < MAX_ACTIVE; i++) {
        const started = await client.start(player, product(i).id);
        expect(started.status).toBe(201);
        ids.push(started.body.data.id);
      }
      const refused = await client.start(player, product(MAX_ACTIVE).id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: 'too_many_active' });
      expect(refused.body.error).toContain(String(MAX_ACTIVE));
      // Until the longest-idle one would expire, at most the idle limit.
      const retryAfter = Number(refused.response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(IDLE_MINUTES * 60);
      const sessions = await t.store.db
        .selectFrom('haggle_sessions')
        .select('id')
        .where('player_id', '=', player.id)
        .execute();
      expect(sessions).toHaveLength(MAX_ACTIVE);

      // Resuming is not a new negotiation: allowed at the cap.
      expect((await client.start(player, product(0).id)).status).toBe(200);
      await idleFor(ids[0] ?? '', IDLE_MINUTES + 1);
      expect((await client.start(player, product(MAX_ACTIVE).id)).status).toBe(201);
    });

    it('should let concurrent starts open no more than the cap', async () => {
      const player = await client.newPlayer('rush');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => client.start(player, product(i).id)),
      );
      expect(results.filter((result) => result.status === 201)).toHaveLength(MAX_ACTIVE);
      const refused = results.filter((result) => result.status === 409);
      expect(refused).toHaveLength(6 - MAX_ACTIVE);
      for (const result of refused) expect(result.body.code).toBe('too_many_active');
      const active = await t.store.db
        .selectFrom('haggle_sessions')
        .select('id')
        .where('player_id', '=', player.id)
        .where('status', '=', 'active')
        .execute();
      expect(active).toHaveLength(MAX_ACTIVE);
    });
  });

  describe('terms', () => {
    /** Six rising offers from 50 % of market, then the seller's counter taken. */
    async function buyWithSameOffers(player: TestPlayer, item: ProductData) {
      const started = await client.start(player, item.id);
      expect(started.status).toBe(201);
      const id = started.body.data.id;
      let counter = 0;
      for (let i = 0; i < 6; i++) {
        const offer = await client.offer(
          player,
          id,
          Math.floor(item.market_price * (50 + 3 * i)) / 100,
        );
        expect(offer.body.data.seller_response.action).toBe('counter');
        counter = offer.body.data.seller_response.counter_offer ?? 0;
      }
      const deal = await client.accept(player, id);
      expect(deal.status).toBe(200);
      return { price: counter, floor: (await row(id)).floor_cents };
    }

    it('should make a second purchase with the same offers cost more than the first', async () => {
      const player = await client.newPlayer('again');
      const item =
        products.find((candidate) => candidate.category === 'Food & Drink') ?? product(0);
      const first = await buyWithSameOffers(player, item);
      const second = await buyWithSameOffers(player, item);
      expect(second.price).toBeGreaterThan(first.price);
      expect(second.floor - first.floor).toBeGreaterThanOrEqual(
        Math.floor(cents(item.market_price) * 0.03),
      );
    });

    it('should count each sale in the product row and show high demand after several', async () => {
      const item = product(4);
      const before = await t.store.db
        .selectFrom('products')
        .select(['sale_hour', 'sales_this_hour'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      const player = await client.newPlayer('demand');
      await buyWithSameOffers(player, item);
      const after = await t.store.db
        .selectFrom('products')
        .select(['sale_hour', 'sales_this_hour', 'sales_hour_before'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      const hour = hourOf(new Date().toISOString());
      expect(after.sale_hour).toBe(hour);
      expect(after.sales_this_hour).toBe(
        before.sale_hour === hour ? before.sales_this_hour + 1 : 1,
      );

      await t.store.db
        .updateTable('products')
        .set({ sale_hour: hour, sales_this_hour: 4, sales_hour_before: 0 })
        .where('id', '=', item.id)
        .execute();
      const read = await client.get<ProductData>(`/api/products/${item.id}`, player);
      expect(read.body.data.demand).toBe('high');
      // Firmer for everyone: a new player's floor is 4 % of market above their own draw.
      const newcomer = await client.newPlayer('firm');
      const started = await client.start(newcomer, item.id);
      const firm = (await row(started.body.data.id)).floor_cents;
      await t.store.db
        .updateTable('products')
        .set({ sale_hour: hour - 1, sales_this_hour: 0, sales_hour_before: 0 })
        .where('id', '=', item.id)
        .execute();
      await client.post('/api/haggle/abandon', { session_id: started.body.data.id }, newcomer);
      await t.store.db
        .deleteFrom('haggle_cooldowns')
        .where('player_id', '=', newcomer.id)
        .execute();
      const calm = await client.start(newcomer, item.id);
      const plain = (await row(calm.body.data.id)).floor_cents;
      const fourPercent = cents(item.market_price) * 0.04;
      expect(Math.abs(firm - plain - fourPercent)).toBeLessThanOrEqual(1);
    });
  });
});
