import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMessage } from '../../src/modules/haggle/haggle.context.js';
import { recordTurn } from '../../src/modules/haggle/haggle.deal.js';
import {
  lockOwnSession,
  lockOwnSessionWithMessages,
} from '../../src/modules/haggle/haggle.repository.js';
import { pastRounds } from '../../src/seller/history.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import {
  expectInvariants,
  expectNoSecretsIn,
  expectStockMatches,
  stockSnapshot,
} from '../helpers/game-checks.js';
import { GameClient, UNLIMITED } from '../helpers/game.js';

/**
 * Races on one negotiation: many starts for one pair, many offers on one session, an offer that
 * waits for another round's lock. Whatever the order of arrival, each round is decided once and
 * every answer sees the rounds committed before it.
 */
describe.each(testDialects)('races on one negotiation (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let initialStock: Map<string, number>;
  const startingCents = new Map<string, number>();

  beforeAll(async () => {
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

  it('should keep one active session when 20 starts for one pair race', async () => {
    const player = await client.newPlayer('starts');
    const product = (await client.inStockProducts())[0];
    if (product === undefined) throw new Error('no product');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.start(player, product.id)),
    );
    expect(results.filter((result) => result.status === 201)).toHaveLength(1);
    expect(results.every((result) => result.status === 201 || result.status === 200)).toBe(true);
    expect(new Set(results.map((result) => result.body.data.id)).size).toBe(1);
    const active = await t.store.db
      .selectFrom('haggle_sessions')
      .select('id')
      .where('player_id', '=', player.id)
      .where('status', '=', 'active')
      .execute();
    expect(active).toHaveLength(1);
    await afterEachRace();
  });

  it('should decide each round once when one session gets concurrent offers', async () => {
    const player = await client.newPlayer('offers');
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 80,
    );
    if (product === undefined) throw new Error('no product');
    const session = (await client.start(player, product.id)).body.data;
    const offer = Math.floor(product.market_price * 60) / 100;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.offer(player, session.id, offer)),
    );
    const ok = results.filter((result) => result.status === 200);
    const rounds = ok.map((result) => result.body.data.seller_response.round).sort((a, b) => a - b);
    expect(rounds).toEqual(Array.from({ length: rounds.length }, (_, i) => i + 1));
    const detail = await client.session(player, session.id);
    expect(detail.body.data.session.rounds_count).toBe(rounds.length);
    expect(detail.body.data.messages).toHaveLength(1 + 2 * rounds.length);
    await afterEachRace();
  });
  it('should give an offer the round committed while it waited for the session', async () => {
    const player = await client.newPlayer('waiting');
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 80,
    );
    if (product === undefined) throw new Error('no product');
    const ids = { sessionId: await client.countered(player, product), playerId: player.id };
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken: () => void = () => undefined;
    const lockTaken = new Promise<void>((resolve) => (taken = resolve));
    // One transaction holds the session and plays round 2; an offer's read waits for it.
    const first = t.store.db.transaction().execute(async (trx) => {
      const locked = await lockOwnSession(trx, ids);
      if (locked === undefined) throw new Error('no session');
      taken();
      await released;
      const { session } = locked;
      const at = new Date().toISOString();
      const message = (position: number, sender: 'player' | 'seller') =>
        newMessage({
          sessionId: session.id,
          position,
          sender,
          text: 'x',
          offerCents: 100,
          round: 2,
          at,
        });
      await recordTurn(trx, session, { ...session, rounds_count: 2 }, [
        message(3, 'player'),
        message(4, 'seller'),
      ]);
    });
    await lockTaken;
    const second = t.store.db.transaction().execute((trx) => lockOwnSessionWithMessages(trx, ids));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await first;
    const read = await second;
    expect(read?.session.rounds_count).toBe(2);
    expect(read?.messages).toHaveLength(5);
    expect(pastRounds(read?.messages ?? [])).toHaveLength(2);
  });
});
