import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { STARTING_CREDITS_CENTS } from '../../src/modules/players/players.service.js';
import { testDialects } from '../helpers/databases.js';
import { GameClient, type ProductData, type TestPlayer } from '../helpers/game.js';
import { endCooldowns, haggleSuite, patientOffers } from '../helpers/haggle.js';

/**
 * Starting a negotiation: the greeting, starting the same one again, what may not be started,
 * and the cool-down after a negotiation ends without a deal.
 */
describe.each(testDialects)('haggle (%s)', (dialect) => {
  const game = haggleSuite(dialect, { maxPrice: 90, checkBooks: true });
  const { affordable, openSession, setCredits } = game;

  describe('happy', () => {
    it('should open a session with a greeting that names the market price and the opening ask', async () => {
      const player = await game.client.newPlayer();
      const product = affordable();
      const { status, body, response } = await game.client.start(player, product.id);
      expect(status).toBe(201);
      expect(response.headers.location).toBe(`http://localhost:80/api/haggle/${body.data.id}`);
      expect(body.data).toMatchObject({
        player_id: player.id,
        product_id: product.id,
        status: 'active',
        current_offer: null,
        ai_counter_offer: null,
        rounds_count: 0,
        max_rounds: 10,
        final_price: null,
        ended_at: null,
      });
      expect(body.data.product.id).toBe(product.id);
      expect(body.data.initial_message).toContain(product.market_price.toFixed(2));
      // The opening ask is public: a money field, and the same number in the greeting.
      expect(body.data.opening_ask).toBeGreaterThanOrEqual(product.market_price);
      expect(body.data.initial_message).toContain(body.data.opening_ask.toFixed(2));
      const detail = await game.client.session(player, body.data.id);
      expect(detail.body.data.messages).toHaveLength(1);
      expect(detail.body.data.messages[0]).toMatchObject({
        sender: 'seller',
        round: 0,
        message: body.data.initial_message,
      });
    });

    it('should return the active session with 200 when the same pair starts again', async () => {
      const player = await game.client.newPlayer();
      const first = await openSession(player);
      const again = await game.client.start(player, first.product_id);
      expect(again.status).toBe(200);
      expect(again.response.headers.location).toBeUndefined();
      expect(again.body.data.id).toBe(first.id);
      expect(again.body.data.initial_message).toBe(first.initial_message);
    });
  });

  describe('errors', () => {
    it('should refuse to start without credits (402) and for a product out of stock (409)', async () => {
      const player = await game.client.newPlayer();
      const soldOut = (await game.client.products()).find(
        (product) => product.stock_quantity === 0,
      );
      expect(soldOut).toBeDefined();
      const outOfStock = await game.client.start(player, soldOut?.id ?? '');
      expect(outOfStock.status).toBe(409);
      expect(outOfStock.body.code).toBe('out_of_stock');
      await setCredits(player, 0);
      const broke = await game.client.start(player, affordable().id);
      expect(broke.status).toBe(402);
      expect(broke.body.code).toBe('insufficient_credits');
      expect(broke.body.error).toBe(
        'You have no credits left: a negotiation needs credits above 0.',
      );
      await setCredits(player, STARTING_CREDITS_CENTS);
    });

    it('should answer 404 for an unknown product or session and 400 for missing fields', async () => {
      const player = await game.client.newPlayer();
      const unknown = '0b7c4f8e-2d1a-4c3b-9e8f-7a6b5c4d3e2f';
      expect((await game.client.start(player, unknown)).status).toBe(404);
      expect((await game.client.offer(player, unknown, 10)).status).toBe(404);
      expect((await game.client.accept(player, unknown)).status).toBe(404);
      expect((await game.client.session(player, unknown)).status).toBe(404);
      const missing = await game.client.post('/api/haggle/offer', { offer_amount: 10 }, player);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('validation_error');
    });
  });

  describe('cool-down', () => {
    const endings: [
      string,
      (player: TestPlayer, sessionId: string, product: ProductData) => Promise<unknown>,
    ][] = [
      [
        'abandoned',
        (player, sessionId) =>
          game.client.post('/api/haggle/abandon', { session_id: sessionId }, player),
      ],
      [
        'rejected',
        async (player, sessionId, product) => {
          const insult = Math.floor(product.market_price * 10) / 100;
          await game.client.offer(player, sessionId, insult);
          await game.client.offer(player, sessionId, insult);
        },
      ],
      [
        'expired',
        async (player, sessionId, product) => {
          for (const amount of patientOffers(product))
            await game.client.offer(player, sessionId, amount);
        },
      ],
    ];

    it.each(endings)(
      'should refuse to reopen a product within the cool-down after a negotiation %s',
      async (status, end) => {
        const player = await game.client.newPlayer();
        const product = affordable(9);
        const session = await openSession(player, product);
        await end(player, session.id, product);
        expect((await game.client.session(player, session.id)).body.data.session.status).toBe(
          status,
        );

        const again = await game.client.start(player, product.id);
        expect(again.status).toBe(409);
        expect(again.body.code).toBe('cooling_down');
        const retryAfter = Number(again.response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(29 * 60);
        expect(retryAfter).toBeLessThanOrEqual(30 * 60);
        const retryAt = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(again.body.error ?? '')?.[0];
        expect(Date.parse(retryAt ?? '') - Date.now()).toBeGreaterThan(29 * 60_000);
        // The negotiation said so before the refusal: the same time, and it lists the product.
        const ended = (await game.client.session(player, session.id)).body.data.session;
        expect(ended.cooldown_until).toBe(retryAt);
        const cooling = await game.client.get<{ items: { id: string; product_id: string }[] }>(
          '/api/haggle?cooling_down=true',
          player,
        );
        expect(cooling.body.data.items).toEqual([
          expect.objectContaining({ id: session.id, product_id: product.id }),
        ]);

        // Another product stays open, and the same one opens again once the time has passed.
        expect((await game.client.start(player, affordable(10).id)).status).toBe(201);
        await endCooldowns(game.t, player.id);
        expect((await game.client.start(player, product.id)).status).toBe(201);
      },
    );

    it('should hold the cool-down in the database, for every server process', async () => {
      // A second process: its own app and connection on the same database.
      const store = openStore(game.t.config);
      const app = await buildApp({ config: game.t.config, store, logger: createLogger('silent') });
      await app.ready();
      try {
        const elsewhere = new GameClient({ ...game.t, app, store });
        const player = await game.client.newPlayer();
        const product = affordable(13);
        const session = await openSession(player, product);
        await game.client.post('/api/haggle/abandon', { session_id: session.id }, player);
        const again = await elsewhere.start(player, product.id);
        expect(again.status).toBe(409);
        expect(again.body.code).toBe('cooling_down');
      } finally {
        await app.close();
        await store.close();
      }
    });

    /** `play` on the same database restarted with a cool-down of `minutes`. */
    async function restartedWith(minutes: number, play: (client: GameClient) => Promise<void>) {
      const config = { ...game.t.config, haggleCooldownMinutes: minutes };
      const app = await buildApp({ config, store: game.t.store, logger: createLogger('silent') });
      await app.ready();
      try {
        await play(new GameClient({ ...game.t, app, config }));
      } finally {
        await app.close();
      }
    }

    it('should say nothing blocks a product when the service has no cool-down', async () => {
      await restartedWith(0, async (uncooled) => {
        const player = await uncooled.newPlayer();
        // A cool-down started while there was one (before a restart without) holds no longer.
        const earlier = affordable(15);
        const before = await openSession(player, earlier);
        await game.client.post('/api/haggle/abandon', { session_id: before.id }, player);
        expect((await game.client.start(player, earlier.id)).status).toBe(409);
        const reopened = await uncooled.start(player, earlier.id);
        expect(reopened.status).toBe(201);
        await uncooled.post('/api/haggle/abandon', { session_id: reopened.body.data.id }, player);

        const product = affordable(14);
        const session = await openSession(player, product);
        const walked = await uncooled.post<{ session: { cooldown_until: string | null } }>(
          '/api/haggle/abandon',
          { session_id: session.id },
          player,
        );
        expect(walked.body.data.session.cooldown_until).toBeNull();
        const cooling = await uncooled.get<{ items: unknown[] }>(
          '/api/haggle?cooling_down=true',
          player,
        );
        expect(cooling.body.data.items).toEqual([]);
        expect((await uncooled.start(player, product.id)).status).toBe(201);
      });
    });

    it('should reckon a cool-down already running with the length set now', async () => {
      // A restart with a shorter cool-down: one minute instead of 30.
      await restartedWith(1, async (shorter) => {
        const player = await shorter.newPlayer();
        const product = affordable(16);
        const session = await openSession(player, product);
        await game.client.post('/api/haggle/abandon', { session_id: session.id }, player);
        const ended = (await shorter.session(player, session.id)).body.data.session;
        const oneMinuteOn = new Date(Date.parse(ended.ended_at ?? '') + 60_000).toISOString();
        expect(ended.cooldown_until).toBe(oneMinuteOn);
        const refused = await shorter.start(player, product.id);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toContain(`at ${oneMinuteOn}.`);
        expect(Number(refused.response.headers['retry-after'])).toBeLessThanOrEqual(60);
      });
    });

    it('should not cool down after a deal, nor for another player', async () => {
      const player = await game.client.newPlayer();
      const other = await game.client.newPlayer();
      const product = affordable(11);
      const session = await openSession(player, product);
      const deal = await game.client.offer(player, session.id, product.market_price);
      expect(deal.body.data.session).toMatchObject({ status: 'accepted', cooldown_until: null });
      expect((await game.client.start(player, product.id)).status).toBe(201);
      const walked = await openSession(other, affordable(12));
      await game.client.post('/api/haggle/abandon', { session_id: walked.id }, other);
      expect((await game.client.start(player, affordable(12).id)).status).toBe(201);
    });
  });
});
