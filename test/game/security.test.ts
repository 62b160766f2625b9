import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { expectInvariants, expectNoSecretsIn } from '../helpers/game-checks.js';
import { GameClient, type TestPlayer, UNLIMITED } from '../helpers/game.js';

describe.each(testDialects)('game security (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let alice: TestPlayer;
  let mallory: TestPlayer;
  let sessionId: string;
  let productId: string;

  /** Everything about Alice that Mallory might try to change. */
  const aliceState = async () => ({
    player: await t.store.db
      .selectFrom('players')
      .selectAll()
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow(),
    sessions: await t.store.db
      .selectFrom('haggle_sessions')
      .selectAll()
      .where('player_id', '=', alice.id)
      .orderBy('id')
      .execute(),
    messages: await t.store.db
      .selectFrom('haggle_messages')
      .select(['id'])
      .where('session_id', '=', sessionId)
      .execute(),
    transactions: await t.store.db.selectFrom('transactions').select('id').execute(),
    stock: await t.store.db
      .selectFrom('products')
      .select('stock_quantity')
      .where('id', '=', productId)
      .executeTakeFirstOrThrow(),
  });

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    client = new GameClient(t);
    alice = await client.newPlayer('alice');
    mallory = await client.newPlayer('mallory');
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 80,
    );
    if (product === undefined) throw new Error('no product');
    productId = product.id;
    sessionId = (await client.start(alice, productId)).body.data.id;
    await client.offer(alice, sessionId, Math.floor(product.market_price * 60) / 100);
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await expectInvariants(t, new Map());
    await t.close();
  });

  it("should not let another player read, offer on, accept or abandon a player's session", async () => {
    const before = await aliceState();
    const attempts = [
      await client.session(mallory, sessionId),
      await client.offer(mallory, sessionId, 99),
      await client.accept(mallory, sessionId),
      await client.post('/api/haggle/abandon', { session_id: sessionId }, mallory),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(404);
      expect(attempt.body).toEqual({
        success: false,
        error: 'Session not found.',
        code: 'not_found',
      });
    }
    expect(await aliceState()).toEqual(before);
  });

  it("should not let another player start a session or rotate a key in a player's name", async () => {
    const before = await aliceState();
    const start = await client.post(
      '/api/haggle/start',
      { player_id: alice.id, product_id: productId },
      mallory,
    );
    expect(start.status).toBe(403);
    expect(start.body.code).toBe('forbidden');
    const rotate = await client.post(`/api/players/${alice.id}/rotate-key`, {}, mallory);
    expect(rotate.status).toBe(403);
    expect(await aliceState()).toEqual(before);
    expect((await client.get(`/api/players/${alice.id}`, alice)).status).toBe(200);
  });

  it('should take a UUID sent in capitals as the same id', async () => {
    const upper = (id: string) => id.toUpperCase();
    const before = await aliceState();
    const reads = [
      `/api/players/${upper(alice.id)}`,
      `/api/players/${upper(alice.id)}/stats`,
      `/api/products/${upper(productId)}`,
      `/api/haggle/${upper(sessionId)}`,
    ];
    for (const url of reads) {
      expect((await client.get(url, alice)).status, url).toBe(200);
    }
    const image = await t.app.inject(`/images/products/${upper(productId)}.svg`);
    expect(image.statusCode).toBe(200);
    const resumed = await client.post(
      '/api/haggle/start',
      { player_id: upper(alice.id), product_id: upper(productId) },
      alice,
    );
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ id: sessionId, resumed: true });
    const mine = await client.get<{ player_id: string }[]>(
      `/api/transactions?player_id=${upper(alice.id)}`,
      alice,
    );
    expect(mine.status).toBe(200);
    expect(await aliceState()).toEqual(before);
  });

  it('should require a key on every private game route', async () => {
    const routes: ['GET' | 'POST', string, object?][] = [
      ['GET', '/api/players'],
      ['GET', `/api/players/${alice.id}`],
      ['GET', `/api/players/${alice.id}/stats`],
      ['POST', `/api/players/${alice.id}/rotate-key`, {}],
      ['GET', `/api/products/${productId}`],
      ['POST', '/api/haggle/start', { player_id: alice.id, product_id: productId }],
      ['POST', '/api/haggle/offer', { session_id: sessionId, offer_amount: 50 }],
      ['POST', '/api/haggle/accept', { session_id: sessionId }],
      ['POST', '/api/haggle/abandon', { session_id: sessionId }],
      ['GET', `/api/haggle/${sessionId}`],
      ['GET', '/api/transactions'],
      ['GET', '/api/inventory'],
    ];
    const before = await aliceState();
    for (const [method, url, payload] of routes) {
      const response = await client.request({
        method,
        url,
        ...(payload === undefined ? {} : { payload }),
      });
      expect(response.status, `${method} ${url}`).toBe(401);
    }
    expect(await aliceState()).toEqual(before);
  });

  it('should answer 401 before looking at the rest of a request without a valid key', async () => {
    const routes: ['GET' | 'POST', string, string?][] = [
      ['POST', '/api/haggle/start', '{}'],
      ['POST', '/api/haggle/offer', '{"session_id": '],
      ['GET', '/api/haggle/not-a-uuid'],
      ['GET', '/api/transactions?limit=0'],
      ['GET', '/api/players/nope/stats'],
    ];
    for (const authorization of [undefined, `Bearer hg_${'0'.repeat(48)}`, 'Basic YTpi']) {
      for (const [method, url, payload] of routes) {
        const response = await client.request({
          method,
          url,
          headers: {
            'content-type': 'application/json',
            ...(authorization === undefined ? {} : { authorization }),
          },
          ...(payload === undefined ? {} : { payload }),
        });
        expect(response.status, `${method} ${url} with ${String(authorization)}`).toBe(401);
        expect(response.body.code).toBe('unauthorized');
        expect(response.response.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });

  it('should ignore fields that do not belong in a request body', async () => {
    const player = await client.newPlayer('mass');
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 80,
    );
    if (product === undefined) throw new Error('no product');
    const started = await client.post<{ id: string; status: string; max_rounds: number }>(
      '/api/haggle/start',
      {
        player_id: player.id,
        product_id: product.id,
        status: 'accepted',
        max_rounds: 100,
        final_price: 0.01,
        stock_quantity: 999,
      },
      player,
    );
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({ status: 'active', max_rounds: 10 });
    const offer = await client.post<{
      session: { status: string; final_price: number | null; player_id: string };
    }>(
      '/api/haggle/offer',
      {
        session_id: started.body.data.id,
        offer_amount: Math.floor(product.market_price * 60) / 100,
        credits: 1_000_000,
        status: 'accepted',
        final_price: 0.01,
        player_id: alice.id,
      },
      player,
    );
    expect(offer.body.data.session).toMatchObject({
      status: 'active',
      final_price: null,
      player_id: player.id,
    });
    const me = await client.get<{ credits: number }>(`/api/players/${player.id}`, player);
    expect(me.body.data.credits).toBe(100);
    const stock = await t.store.db
      .selectFrom('products')
      .select('stock_quantity')
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(stock.stock_quantity).toBe(product.stock_quantity);
  });

  it('should never show an e-mail to anyone but its owner', async () => {
    const list = await client.get<{ id: string; email: string | null }[]>('/api/players', mallory);
    for (const row of list.body.data) {
      expect(row.email === null || row.id === mallory.id).toBe(true);
    }
  });
});
