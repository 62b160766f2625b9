import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { UNLIMITED } from '../helpers/game.js';
import { call, serverProcesses } from '../helpers/process.js';

const MAX_ACTIVE = 3;
const IDLE_MINUTES = 15;

/**
 * The cap on active negotiations and idle expiry are decided from the database alone, so two
 * server processes on one database agree: concurrent starts sent to both never pass the cap,
 * and an idle negotiation is expired once, whichever process notices it.
 */
describe.each(testDialects)('the cap and idle expiry across two processes (%s)', (dialect) => {
  const processes = serverProcesses(dialect);

  it('should open no more than the cap from concurrent starts and expire an idle negotiation once', async () => {
    const { store, via } = await processes.startPair({
      ...UNLIMITED,
      HAGGLE_MAX_ACTIVE: String(MAX_ACTIVE),
      HAGGLE_IDLE_MINUTES: String(IDLE_MINUTES),
    });

    const registered = await call<{ id: string; api_key: string }>(via(0), '/api/players', {
      username: 'two_servers_cap',
      email: 'two_servers_cap@example.com',
    });
    const { id: playerId, api_key: key } = registered.body.data;
    const products = await call<{ id: string; market_price: number; stock_quantity: number }[]>(
      via(1),
      '/api/products',
    );
    const candidates = products.body.data
      .filter((product) => product.stock_quantity > 0 && product.market_price <= 60)
      .slice(0, 8);

    const starts = await Promise.all(
      candidates.map((product, i) =>
        call<{ id: string }>(
          via(i),
          '/api/haggle/start',
          { player_id: playerId, product_id: product.id },
          key,
        ),
      ),
    );
    const opened = starts.filter((start) => start.status === 201);
    expect(opened).toHaveLength(MAX_ACTIVE);
    const refused = starts.filter((start) => start.status === 409);
    expect(refused).toHaveLength(candidates.length - MAX_ACTIVE);
    for (const answer of refused) {
      expect(answer.body.code).toBe('too_many_active');
      expect(answer.body.error).toContain(String(MAX_ACTIVE));
    }
    const rows = await store.db
      .selectFrom('haggle_sessions')
      .select(['id', 'status'])
      .where('player_id', '=', playerId)
      .execute();
    expect(rows).toHaveLength(MAX_ACTIVE);

    // One of them goes idle; both processes are asked about it at once.
    const idleIndex = starts.findIndex((start) => start.status === 201);
    const idleId = starts[idleIndex]?.body.data.id ?? '';
    const lastMove = new Date(Date.now() - (IDLE_MINUTES + 1) * 60_000).toISOString();
    await store.db
      .updateTable('haggle_sessions')
      .set({ last_move_at: lastMove })
      .where('id', '=', idleId)
      .execute();
    const touches = await Promise.all([
      call(via(0), '/api/haggle/offer', { session_id: idleId, offer_amount: 10 }, key),
      call(via(1), '/api/haggle/accept', { session_id: idleId }, key),
      call(via(0), '/api/haggle/abandon', { session_id: idleId }, key),
    ]);
    for (const touch of touches) {
      expect(touch.status).toBe(409);
      expect(touch.body.code).toBe('session_not_active');
    }
    const deadline = new Date(Date.parse(lastMove) + IDLE_MINUTES * 60_000).toISOString();
    const expired = await store.db
      .selectFrom('haggle_sessions')
      .select(['status', 'ended_at'])
      .where('id', '=', idleId)
      .executeTakeFirstOrThrow();
    expect(expired).toEqual({ status: 'expired', ended_at: deadline });
    const messages = await store.db
      .selectFrom('haggle_messages')
      .select('id')
      .where('session_id', '=', idleId)
      .execute();
    expect(messages).toHaveLength(1);

    // The expired one no longer counts toward the cap, and its product cools down.
    const next = await call(
      via(1),
      '/api/haggle/start',
      { player_id: playerId, product_id: candidates.find((_, i) => starts[i]?.status === 409)?.id },
      key,
    );
    expect(next.status).toBe(201);
    const idleProduct = candidates[idleIndex];
    const reopen = await call(
      via(0),
      '/api/haggle/start',
      { player_id: playerId, product_id: idleProduct?.id },
      key,
    );
    expect(reopen.status).toBe(409);
    expect(reopen.body.code).toBe('cooling_down');
    expect(Number(reopen.retryAfter)).toBeGreaterThan(0);
  });
});
