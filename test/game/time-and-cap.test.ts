import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { cents, type ProductData } from '../helpers/game.js';
import { haggleSuite, IDLE_MINUTES, MAX_ACTIVE, TIMED } from '../helpers/haggle.js';

/**
 * Time in the game, version 3: idle negotiations expire, a player holds a limited number at
 * once, and a start on an active negotiation resumes it. (terms.test.ts: how terms move.)
 */
describe.each(testDialects)('time, the cap and the terms of the game (%s)', (dialect) => {
  const game = haggleSuite(dialect, { env: TIMED, maxPrice: 40 });
  const { affordable } = game;

  /** Moves a session's last move back, as if that many minutes had passed without an offer. */
  async function idleFor(sessionId: string, minutes: number): Promise<string> {
    const lastMove = new Date(Date.now() - minutes * 60_000).toISOString();
    await game.t.store.db
      .updateTable('haggle_sessions')
      .set({ last_move_at: lastMove })
      .where('id', '=', sessionId)
      .execute();
    return lastMove;
  }

  /** `fraction` of the market price, in whole cents. */
  const share = (item: ProductData, fraction: number) =>
    Math.floor(item.market_price * fraction * 100) / 100;

  const messageCount = async (sessionId: string) =>
    (
      await game.t.store.db
        .selectFrom('haggle_messages')
        .select('id')
        .where('session_id', '=', sessionId)
        .execute()
    ).length;

  describe('resume', () => {
    it('should return an active negotiation as it stands, never the greeting again', async () => {
      const player = await game.client.newPlayer('resume');
      const item = affordable(0);
      const first = await game.client.start(player, item.id);
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ resumed: false, rounds_count: 0 });
      expect(first.body.data.current_ask).toBe(first.body.data.opening_ask);
      const offer = await game.client.offer(player, first.body.data.id, share(item, 0.6));
      expect(offer.body.data.seller_response.action).toBe('counter');

      const again = await game.client.start(player, item.id);
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
    it('should answer a retried round of an idle negotiation as it was, and any other round 409', async () => {
      const player = await game.client.newPlayer('idle');
      const item = affordable(2);
      const id = (await game.client.start(player, item.id)).body.data.id;
      const first = await game.client.offer(player, id, share(item, 0.6), undefined, 1);
      expect(first.body.data.seller_response.action).toBe('counter');
      const lastMove = await idleFor(id, IDLE_MINUTES + 1);

      const retry = await game.client.offer(player, id, share(item, 0.6), undefined, 1);
      expect(retry.status).toBe(200);
      expect(retry.body.data.seller_response).toEqual(first.body.data.seller_response);
      expect(retry.body.data.session).toMatchObject({
        status: 'expired',
        ended_at: new Date(Date.parse(lastMove) + IDLE_MINUTES * 60_000).toISOString(),
      });
      for (const round of [1, 3]) {
        const other = await game.client.offer(player, id, share(item, 0.7), undefined, round);
        expect(other.status).toBe(409);
        expect(other.body.code).toBe('session_not_active');
      }
    });

    it('should expire a negotiation with no offer for the idle limit, write it once and start the cool-down', async () => {
      const player = await game.client.newPlayer('idle');
      const item = affordable(1);
      const started = await game.client.start(player, item.id);
      const id = started.body.data.id;
      const offer = await game.client.offer(player, id, share(item, 0.6));
      expect(offer.body.data.session.expires_at).not.toBeNull();
      const lastMove = await idleFor(id, IDLE_MINUTES + 1);
      const deadline = new Date(Date.parse(lastMove) + IDLE_MINUTES * 60_000).toISOString();

      // Readers show it expired before anything is written, with the cool-down from its deadline.
      const coolsUntil = new Date(
        Date.parse(deadline) + game.t.config.haggleCooldownMinutes * 60_000,
      ).toISOString();
      const read = await game.client.session(player, id);
      expect(read.body.data.session).toMatchObject({
        status: 'expired',
        expires_at: null,
        ended_at: deadline,
        cooldown_until: coolsUntil,
      });
      const cooling = await game.client.get<{ items: { id: string; cooldown_until: string }[] }>(
        '/api/haggle?cooling_down=true',
        player,
      );
      expect(cooling.body.data.items).toEqual([
        expect.objectContaining({ id, cooldown_until: coolsUntil }),
      ]);
      const listed = await game.client.get<{ items: { id: string }[] }>(
        '/api/haggle?status=active',
        player,
      );
      expect(listed.body.data.items.map((item) => item.id)).not.toContain(id);
      const stats = await game.client.get<{ active_sessions: number; completed_sessions: number }>(
        `/api/players/${player.id}/stats`,
        player,
      );
      expect(stats.body.data).toMatchObject({ active_sessions: 0, completed_sessions: 1 });
      const expiredList = await game.client.get<{ items: { id: string; status: string }[] }>(
        '/api/haggle?status=expired',
        player,
      );
      expect(expiredList.body.data.items).toContainEqual(
        expect.objectContaining({ id, status: 'expired' }),
      );

      // Its counter can no longer be accepted, and no offer is taken: nothing half-written.
      const before = await messageCount(id);
      const accept = await game.client.accept(player, id);
      expect(accept.status).toBe(409);
      expect(accept.body).toMatchObject({ success: false, code: 'session_not_active' });
      expect(accept.body.error).toContain(`${IDLE_MINUTES} minutes`);
      const late = await game.client.offer(player, id, share(item, 0.7));
      expect(late.status).toBe(409);
      expect(await messageCount(id)).toBe(before);
      expect(await game.sessionRow(id)).toMatchObject({
        status: 'expired',
        ended_at: deadline,
        current_offer_cents: cents(offer.body.data.session.current_offer ?? 0),
      });

      // Expired counts as a no-deal ending: the cool-down runs from the deadline.
      const reopen = await game.client.start(player, item.id);
      expect(reopen.status).toBe(409);
      expect(reopen.body.code).toBe('cooling_down');
      expect(Number(reopen.response.headers['retry-after'])).toBeGreaterThan(0);
      expect(reopen.body.error).toContain(`you may start a new one at ${coolsUntil}.`);

      // An idle negotiation whose cool-down has run out by now blocks nothing.
      const other = await game.client.start(player, affordable(2).id);
      await idleFor(other.body.data.id, IDLE_MINUTES + game.t.config.haggleCooldownMinutes + 1);
      const stillCooling = await game.client.get<{ items: { id: string }[] }>(
        '/api/haggle?cooling_down=true',
        player,
      );
      expect(stillCooling.body.data.items.map((item) => item.id)).toEqual([id]);
    });

    it('should keep a negotiation alive while offers come within the limit', async () => {
      const player = await game.client.newPlayer('alive');
      const item = affordable(2);
      const started = await game.client.start(player, item.id);
      const id = started.body.data.id;
      await idleFor(id, IDLE_MINUTES - 1);
      const offer = await game.client.offer(player, id, share(item, 0.6));
      expect(offer.status).toBe(200);
      expect(Date.parse(offer.body.data.session.expires_at ?? '')).toBeGreaterThan(
        Date.now() + (IDLE_MINUTES - 1) * 60_000,
      );
    });
  });

  describe('the cap on active negotiations', () => {
    it('should refuse one more than the cap, naming the limit, and count idle ones as ended', async () => {
      const player = await game.client.newPlayer('cap');
      const ids: string[] = [];
      for (let i = 0; i < MAX_ACTIVE; i++) {
        const started = await game.client.start(player, affordable(i).id);
        expect(started.status).toBe(201);
        ids.push(started.body.data.id);
      }
      const refused = await game.client.start(player, affordable(MAX_ACTIVE).id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: 'too_many_active' });
      expect(refused.body.error).toContain(String(MAX_ACTIVE));
      // Until the longest-idle one would expire, at most the idle limit.
      const retryAfter = Number(refused.response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(IDLE_MINUTES * 60);
      const sessions = await game.t.store.db
        .selectFrom('haggle_sessions')
        .select('id')
        .where('player_id', '=', player.id)
        .execute();
      expect(sessions).toHaveLength(MAX_ACTIVE);

      // Resuming is not a new negotiation: allowed at the cap.
      expect((await game.client.start(player, affordable(0).id)).status).toBe(200);
      await idleFor(ids[0] ?? '', IDLE_MINUTES + 1);
      expect((await game.client.start(player, affordable(MAX_ACTIVE).id)).status).toBe(201);
    });

    it('should let concurrent starts open no more than the cap', async () => {
      const player = await game.client.newPlayer('rush');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => game.client.start(player, affordable(i).id)),
      );
      expect(results.filter((result) => result.status === 201)).toHaveLength(MAX_ACTIVE);
      const refused = results.filter((result) => result.status === 409);
      expect(refused).toHaveLength(6 - MAX_ACTIVE);
      for (const result of refused) expect(result.body.code).toBe('too_many_active');
      const active = await game.t.store.db
        .selectFrom('haggle_sessions')
        .select('id')
        .where('player_id', '=', player.id)
        .where('status', '=', 'active')
        .execute();
      expect(active).toHaveLength(MAX_ACTIVE);
    });
  });
});
