import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { UNLIMITED } from '../helpers/game.js';
import { call, serverProcesses } from '../helpers/process.js';

/**
 * Two server processes on one database must decide deals as one would: on SQLite each process
 * commits its own transactions together (group commit) while the other waits for the file's
 * write lock; on PostgreSQL each sends a deal's writes as one statement.
 */
describe.each(testDialects)('deals across two processes (%s)', (dialect) => {
  const processes = serverProcesses(dialect);

  it('should let a player with credits for k of n accepts, sent to both, make exactly k deals', async () => {
    const n = 8;
    const k = 3;
    // Eight negotiations at once for one player: more than the default cap.
    const { store, via } = await processes.startPair({ ...UNLIMITED, HAGGLE_MAX_ACTIVE: '100' });

    const registered = await call<{ id: string; api_key: string }>(via(0), '/api/players', {
      username: 'two_servers',
      email: 'two_servers@example.com',
    });
    expect(registered.status).toBe(201);
    const { id: playerId, api_key: key } = registered.body.data;
    const products = await call<{ id: string; market_price: number; stock_quantity: number }[]>(
      via(1),
      '/api/products',
    );
    const candidates = products.body.data
      .filter((product) => product.stock_quantity > 0 && product.market_price <= 60)
      .slice(0, n);
    expect(candidates).toHaveLength(n);
    const sessionIds: string[] = [];
    for (const [i, product] of candidates.entries()) {
      const started = await call<{ id: string }>(
        via(i),
        '/api/haggle/start',
        { player_id: playerId, product_id: product.id },
        key,
      );
      expect(started.status).toBe(201);
      const offer = await call<{ seller_response: { action: string } }>(
        via(i + 1),
        '/api/haggle/offer',
        {
          session_id: started.body.data.id,
          offer_amount: Math.floor(product.market_price * 60) / 100,
        },
        key,
      );
      expect(offer.body.data.seller_response.action).toBe('counter');
      sessionIds.push(started.body.data.id);
    }
    // One price for every counter (at or above every floor), so "k affordable" is exact.
    const floors = await store.db
      .selectFrom('haggle_sessions')
      .select('floor_cents')
      .where('id', 'in', sessionIds)
      .execute();
    const price = Math.max(...floors.map((row) => row.floor_cents));
    await store.db
      .updateTable('haggle_sessions')
      .set({ counter_offer_cents: price })
      .where('id', 'in', sessionIds)
      .execute();
    const credits = k * price + price - 1;
    await store.db
      .updateTable('players')
      .set({ credits_cents: credits })
      .where('id', '=', playerId)
      .execute();

    const results = await Promise.all(
      sessionIds.map((id, i) =>
        call<{ new_credits: number }>(via(i), '/api/haggle/accept', { session_id: id }, key),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(k);
    expect(results.filter((result) => result.status === 402)).toHaveLength(n - k);
    // Each deal reports the balance its own charge left.
    const reported = results
      .filter((result) => result.status === 200)
      .map((result) => Math.round(result.body.data.new_credits * 100))
      .sort((a, b) => b - a);
    expect(reported).toEqual([credits - price, credits - 2 * price, credits - 3 * price]);

    const player = await store.db
      .selectFrom('players')
      .select(['credits_cents', 'total_spent_cents', 'deals_count'])
      .where('id', '=', playerId)
      .executeTakeFirstOrThrow();
    expect(player).toEqual({
      credits_cents: price - 1,
      total_spent_cents: k * price,
      deals_count: k,
    });
    const deals = await store.db
      .selectFrom('transactions')
      .select('session_id')
      .where('player_id', '=', playerId)
      .execute();
    const accepted = await store.db
      .selectFrom('haggle_sessions')
      .select('id')
      .where('id', 'in', sessionIds)
      .where('status', '=', 'accepted')
      .execute();
    expect(new Set(deals.map((row) => row.session_id))).toEqual(
      new Set(accepted.map((row) => row.id)),
    );
    expect(deals).toHaveLength(k);
  });
});
