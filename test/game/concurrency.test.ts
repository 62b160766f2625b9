import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import {
  expectInvariants,
  expectNoSecretsIn,
  expectRanksMatchTransactions,
  expectStockMatches,
  stockSnapshot,
} from '../helpers/game-checks.js';
import { cents, GameClient, type TestPlayer, UNLIMITED } from '../helpers/game.js';

/**
 * Races fired as parallel requests through the whole HTTP stack. On PostgreSQL they run on
 * separate pool connections at once; on SQLite they queue for the write lock. Either way the
 * database's conditional updates, not the order of arrival, must decide who wins.
 */
describe.each(testDialects)('concurrency (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let initialStock: Map<string, number>;
  const startingCents = new Map<string, number>();

  beforeAll(async () => {
    // Many negotiations at once per player: more than the default cap.
    t = await createTestApp(dialect, { ...UNLIMITED, HAGGLE_MAX_ACTIVE: '100' });
    client = new GameClient(t);
    initialStock = await stockSnapshot(t);
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await t.close();
  });

  const afterEachRace = async () => {
    await expectInvariants(t, startingCents);
    await expectStockMatches(t, initialStock);
  };

  async function setStock(productId: string, stock: number): Promise<void> {
    const before = initialStock.get(productId) ?? 0;
    const current = (await stockSnapshot(t)).get(productId) ?? 0;
    await t.store.db
      .updateTable('products')
      .set({ stock_quantity: stock })
      .where('id', '=', productId)
      .execute();
    // Keep the bookkeeping honest: the test changed stock, not a sale.
    initialStock.set(productId, before + (stock - current));
  }

  it('should let a player with credits for k of n concurrent accepts make exactly k deals', async () => {
    const n = 8;
    const k = 3;
    const player = await client.newPlayer('kofn');
    const candidates = (await client.inStockProducts())
      .filter((product) => product.market_price <= 60)
      .slice(0, n);
    expect(candidates).toHaveLength(n);
    const sessionIds: string[] = [];
    for (const product of candidates) sessionIds.push(await client.countered(player, product));
    // Give every counter the same price (at or above every floor) so "k affordable" is exact.
    const rows = await t.store.db
      .selectFrom('haggle_sessions')
      .select(['id', 'floor_cents'])
      .where('id', 'in', sessionIds)
      .execute();
    const price = Math.max(...rows.map((row) => row.floor_cents));
    await t.store.db
      .updateTable('haggle_sessions')
      .set({ counter_offer_cents: price })
      .where('id', 'in', sessionIds)
      .execute();
    const credits = k * price + price - 1;
    await t.store.db
      .updateTable('players')
      .set({ credits_cents: credits })
      .where('id', '=', player.id)
      .execute();
    startingCents.set(player.id, credits);

    const results = await Promise.all(sessionIds.map((id) => client.accept(player, id)));
    expect(results.filter((result) => result.status === 200)).toHaveLength(k);
    expect(results.filter((result) => result.status === 402)).toHaveLength(n - k);
    const row = await t.store.db
      .selectFrom('players')
      .select('credits_cents')
      .where('id', '=', player.id)
      .executeTakeFirstOrThrow();
    expect(row.credits_cents).toBe(price - 1);
    // Each deal reports the balance its own charge left, so no two report the same.
    const reported = results
      .filter((result) => result.status === 200)
      .map((result) => cents(result.body.data.new_credits))
      .sort((a, b) => b - a);
    expect(reported).toEqual([credits - price, credits - 2 * price, credits - 3 * price]);
    await afterEachRace();
  });

  it('should report 10 and 0 when a player with 20.00 accepts two 10.00 counters at once', async () => {
    const player = await client.newPlayer('twoaccepts');
    const candidates = (await client.inStockProducts()).slice(0, 2);
    const sessionIds: string[] = [];
    for (const product of candidates) sessionIds.push(await client.countered(player, product));
    await t.store.db
      .updateTable('haggle_sessions')
      // The floor moves too: the database refuses a deal below it.
      .set({ counter_offer_cents: 1_000, floor_cents: 1_000 })
      .where('id', 'in', sessionIds)
      .execute();
    await t.store.db
      .updateTable('players')
      .set({ credits_cents: 2_000 })
      .where('id', '=', player.id)
      .execute();
    startingCents.set(player.id, 2_000);

    const results = await Promise.all(sessionIds.map((id) => client.accept(player, id)));
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    expect(results.map((result) => result.body.data.new_credits).sort()).toEqual([0, 10]);
    await afterEachRace();
  });

  it('should give exactly s deals when m players race for the last s units', async () => {
    const m = 10;
    const s = 3;
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 50,
    );
    if (product === undefined) throw new Error('no product to race for');
    const players = await Promise.all(Array.from({ length: m }, () => client.newPlayer('race')));
    const sessions = [];
    for (const player of players) sessions.push((await client.start(player, product.id)).body.data);
    await setStock(product.id, s);
    // Offer the full opening ask, which the seller always accepts: the race is for stock alone.
    const asks = await t.store.db
      .selectFrom('haggle_sessions')
      .select(['id', 'opening_ask_cents'])
      .where(
        'id',
        'in',
        sessions.map((session) => session.id),
      )
      .execute();
    const askOf = new Map(asks.map((row) => [row.id, row.opening_ask_cents]));
    const results = await Promise.all(
      sessions.map((session, i) =>
        client.offer(players[i] as TestPlayer, session.id, (askOf.get(session.id) ?? 0) / 100),
      ),
    );
    const deals = results.filter(
      (result) => result.status === 200 && result.body.data.seller_response.action === 'accept',
    );
    expect(deals).toHaveLength(s);
    const refused = results.filter((result) => result.status === 409);
    expect(refused).toHaveLength(m - s);
    expect(refused.every((result) => result.body.code === 'out_of_stock')).toBe(true);
    expect((await stockSnapshot(t)).get(product.id)).toBe(0);
    // A refused offer used no round.
    const losers = await t.store.db
      .selectFrom('haggle_sessions')
      .select('rounds_count')
      .where(
        'id',
        'in',
        sessions.map((session) => session.id),
      )
      .where('status', '=', 'active')
      .execute();
    expect(losers).toHaveLength(m - s);
    expect(losers.every((row) => row.rounds_count === 0)).toBe(true);
    await afterEachRace();
  });

  it('should make one deal and one transaction from 20 concurrent accepts of one session', async () => {
    const player = await client.newPlayer('twenty');
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 80,
    );
    if (product === undefined) throw new Error('no product');
    const sessionId = await client.countered(player, product);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.accept(player, sessionId)),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(
      results.filter(
        (result) => result.status === 409 && result.body.code === 'session_not_active',
      ),
    ).toHaveLength(19);
    const transactions = await t.store.db
      .selectFrom('transactions')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(transactions).toHaveLength(1);
    await afterEachRace();
  });

  it("should keep ranks exact when many players' deals commit at once", async () => {
    const products = (await client.inStockProducts())
      .filter((product) => product.market_price <= 60)
      .slice(0, 2);
    expect(products).toHaveLength(2);
    for (const product of products) await setStock(product.id, 100);
    const players = await Promise.all(Array.from({ length: 12 }, () => client.newPlayer('rank')));
    const sessions: { player: TestPlayer; id: string; step: number }[] = [];
    for (const [i, player] of players.entries()) {
      for (const product of products) {
        sessions.push({ player, id: await client.countered(player, product), step: i % 4 });
      }
    }
    // Four price levels above each floor: players on the same level tie, the others do not.
    const floors = await t.store.db
      .selectFrom('haggle_sessions')
      .select(['id', 'floor_cents'])
      .where(
        'id',
        'in',
        sessions.map((session) => session.id),
      )
      .execute();
    for (const { id, floor_cents: floor } of floors) {
      const step = sessions.find((session) => session.id === id)?.step ?? 0;
      await t.store.db
        .updateTable('haggle_sessions')
        .set({ counter_offer_cents: floor + step * 137 })
        .where('id', '=', id)
        .execute();
    }
    const results = await Promise.all(
      sessions.map((session) => client.accept(session.player, session.id)),
    );
    expect(results.map((result) => result.status)).toEqual(sessions.map(() => 200));
    await afterEachRace();
    await expectRanksMatchTransactions(client, players[0] as TestPlayer);
  });
});
