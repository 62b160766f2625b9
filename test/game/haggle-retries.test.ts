import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import type { TestPlayer } from '../helpers/game.js';
import { haggleSuite, patientOffers } from '../helpers/haggle.js';

/**
 * Offers that name their `round`: a retry of the round just played is answered again and
 * changes nothing, whatever that answer was (a counter, a deal, the end); any other round is
 * refused.
 */
describe.each(testDialects)('retried offers (%s)', (dialect) => {
  const game = haggleSuite(dialect, { maxPrice: 90, checkBooks: true });
  const { affordable, openSession } = game;

  const detail = async (player: TestPlayer, sessionId: string) =>
    (await game.client.session(player, sessionId)).body.data;
  const creditsOf = async (player: TestPlayer) =>
    (await game.client.get<{ credits: number }>(`/api/players/${player.id}`, player)).body.data
      .credits;

  it('should answer a retried counter round again, objection included, and take no round', async () => {
    const player = await game.client.newPlayer();
    const product = affordable(1);
    const session = await openSession(player, product);
    const [opening = 0] = patientOffers(product);
    expect((await game.client.offer(player, session.id, opening, undefined, 1)).status).toBe(200);
    const insult = Math.max(0.01, Math.floor(product.market_price * 10) / 100);
    const first = await game.client.offer(player, session.id, insult, 'first try', 2);
    expect(first.body.data.seller_response).toMatchObject({
      action: 'counter',
      round: 2,
      objection: 'insult',
      strikes_left: 1,
    });

    // The same round and amount again (other words): the first answer, not a second insult.
    const retry = await game.client.offer(player, session.id, insult, 'second try', 2);
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(first.body.data);
    const after = await detail(player, session.id);
    expect(after.session).toMatchObject({ status: 'active', rounds_count: 2 });
    expect(after.messages).toHaveLength(5);
    expect(after.messages[3]?.message).toBe('first try');

    // The next round goes on as usual.
    const next = await game.client.offer(player, session.id, opening, undefined, 3);
    expect(next.status).toBe(200);
    expect(next.body.data.seller_response.round).toBe(3);
    expect((await detail(player, session.id)).session.rounds_count).toBe(3);
  });

  it('should answer a retried offer that made the deal again without paying twice', async () => {
    const player = await game.client.newPlayer();
    await game.readProducts();
    const product = game.products.find((p) => p.market_price <= 60) ?? affordable(2);
    const session = await openSession(player, product);
    const price = session.opening_ask;
    const first = await game.client.offer(player, session.id, price, undefined, 1);
    expect(first.body.data.seller_response.action).toBe('accept');
    expect(first.body.data.session.status).toBe('accepted');
    expect(first.body.data.new_credits).toBeCloseTo(100 - price, 2);

    const retry = await game.client.offer(player, session.id, price, undefined, 1);
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await creditsOf(player)).toBeCloseTo(100 - price, 2);
    // The answer carries the deal, the one listed, and its retry the same deal.
    const bought = await game.client.get<unknown[]>(
      `/api/transactions?player_id=${player.id}`,
      player,
    );
    expect(bought.body.data).toEqual([first.body.data.transaction]);
    expect(first.body.data.transaction).toMatchObject({
      session_id: session.id,
      product_id: product.id,
      final_price: price,
    });
    const stock = (await game.client.products()).find((p) => p.id === product.id)?.stock_quantity;
    expect(stock).toBe(product.stock_quantity - 1);

    // Any other round on a finished negotiation is what an offer without one gets.
    const later = await game.client.offer(player, session.id, price, undefined, 2);
    expect(later.status).toBe(409);
    expect(later.body.code).toBe('session_not_active');
    expect(later.body.error).toBe(
      'This negotiation is accepted: it is over and takes no more offers, accepts or walk-aways.',
    );
    const otherAmount = await game.client.offer(player, session.id, 1, undefined, 1);
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.code).toBe('session_not_active');
  });

  it('should answer a retried 10th offer that ended the negotiation again', async () => {
    const player = await game.client.newPlayer();
    const product = affordable(3);
    const session = await openSession(player, product);
    const offers = patientOffers(product);
    let last;
    for (const [i, amount] of offers.entries())
      last = await game.client.offer(player, session.id, amount, undefined, i + 1);
    expect(last?.body.data.seller_response).toMatchObject({ action: 'reject', round: 10 });
    expect(last?.body.data.session.status).toBe('expired');

    const retry = await game.client.offer(player, session.id, offers[9] ?? 0, undefined, 10);
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(last?.body.data);
    expect((await detail(player, session.id)).messages).toHaveLength(21);
  });

  it('should refuse a round that is not the next one and change nothing', async () => {
    const player = await game.client.newPlayer();
    const product = affordable(4);
    const session = await openSession(player, product);
    const [opening = 0, raise = 0] = patientOffers(product);

    const ahead = await game.client.offer(player, session.id, opening, undefined, 2);
    expect(ahead.status).toBe(400);
    expect(ahead.body).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'round', message: expect.stringContaining('next offer is round 1') }],
    });
    expect((await detail(player, session.id)).session.rounds_count).toBe(0);

    expect((await game.client.offer(player, session.id, opening, undefined, 1)).status).toBe(200);
    const changed = await game.client.offer(player, session.id, raise, undefined, 1);
    expect(changed.status).toBe(400);
    expect(changed.body.details?.[0]?.message).toContain(
      `played with an offer of ${opening.toFixed(2)} credits`,
    );
    expect(changed.body.error).toContain('round 1 was played');

    for (const round of [0, 11, 1.5, '2']) {
      const bad = await game.client.post(
        '/api/haggle/offer',
        { session_id: session.id, offer_amount: raise, round },
        player,
      );
      expect(bad.status, JSON.stringify(round)).toBe(400);
      expect(bad.body.code).toBe('validation_error');
    }
    const after = await detail(player, session.id);
    expect(after.session.rounds_count).toBe(1);
    expect(after.messages).toHaveLength(3);
  });

  it('should play one round for the same offer sent twice at once', async () => {
    const player = await game.client.newPlayer();
    const product = affordable(5);
    const session = await openSession(player, product);
    const [opening = 0] = patientOffers(product);
    const [a, b] = await Promise.all([
      game.client.offer(player, session.id, opening, undefined, 1),
      game.client.offer(player, session.id, opening, undefined, 1),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.seller_response).toEqual(b.body.data.seller_response);
    const after = await detail(player, session.id);
    expect(after.session.rounds_count).toBe(1);
    expect(after.messages).toHaveLength(3);
  });

  it('should make one deal for the same deal-making offer sent twice at once', async () => {
    const player = await game.client.newPlayer();
    await game.readProducts();
    const product = game.products.find((p) => p.market_price <= 60) ?? affordable(7);
    const session = await openSession(player, product);
    const price = session.opening_ask;
    const answers = await Promise.all(
      [1, 2, 3].map(() => game.client.offer(player, session.id, price, undefined, 1)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    for (const answer of answers)
      expect(answer.body.data.seller_response).toMatchObject({ action: 'accept', round: 1 });
    expect(await creditsOf(player)).toBeCloseTo(100 - price, 2);
    expect((await detail(player, session.id)).messages).toHaveLength(3);
  });

  it("should not answer another player's round", async () => {
    const owner = await game.client.newPlayer();
    const stranger = await game.client.newPlayer();
    const product = affordable(6);
    const session = await openSession(owner, product);
    const [opening = 0] = patientOffers(product);
    expect((await game.client.offer(owner, session.id, opening, undefined, 1)).status).toBe(200);
    const peek = await game.client.offer(stranger, session.id, opening, undefined, 1);
    expect(peek.status).toBe(404);
    expect(peek.body.code).toBe('not_found');
  });
});
