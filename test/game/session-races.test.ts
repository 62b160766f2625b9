import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMessage } from '../../src/modules/haggle/haggle.context.js';
import { recordTurn } from '../../src/modules/haggle/haggle.deal.js';
import {
  readOwnSession,
  readOwnSessionWithMessages,
} from '../../src/modules/haggle/haggle.repository.js';
import { pastRounds } from '../../src/seller/history.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import {
  expectInvariants,
  expectNoSecretsIn,
  expectRanksMatchTransactions,
  expectStockMatches,
  stockSnapshot,
} from '../helpers/game-checks.js';
import { GameClient, UNLIMITED, type TestPlayer } from '../helpers/game.js';

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
      const locked = await readOwnSession(trx, ids);
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
      await recordTurn(trx, locked, { ...session, rounds_count: 2 }, [
        message(3, 'player'),
        message(4, 'seller'),
      ]);
    });
    await lockTaken;
    const second = t.store.db.transaction().execute((trx) => readOwnSessionWithMessages(trx, ids));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await first;
    const read = await second;
    expect(read?.session.rounds_count).toBe(2);
    expect(read?.messages).toHaveLength(5);
    expect(pastRounds(read?.messages ?? [])).toHaveLength(2);
  });
});

/**
 * PostgreSQL decides a turn on rows read without locks and writes it in one statement that
 * fails whole if they changed meanwhile; the turn is then decided again under locks. Here the
 * change is made to happen while that statement waits: another connection holds the player's
 * row, changes it and commits.
 */
describe.runIf(testDialects.includes('postgres'))('turns decided without locks (postgres)', () => {
  let t: TestApp;
  let client: GameClient;
  let other: pg.Client;
  let initialStock: Map<string, number>;
  const startingCents = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp('postgres', { ...UNLIMITED, HAGGLE_MAX_ACTIVE: '100' });
    client = new GameClient(t);
    other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    initialStock = await stockSnapshot(t);
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  /** Waits until `count` statements of the service wait for a row lock. */
  async function lockWaits(count: number): Promise<void> {
    for (let tries = 0; tries < 400; tries += 1) {
      // Inside the other connection's transaction the view would keep its first snapshot.
      await other.query('select pg_stat_clear_snapshot()');
      const { rows } = await other.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      );
      if ((rows[0]?.n ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`${String(count)} statements never waited for the lock`);
  }

  /**
   * Runs `requests` while the other connection holds the player's row; once `waiting` of them
   * wait for it, `change` runs there and commits (or, without one, the lock is let go).
   */
  async function whileHeld<T>(
    player: TestPlayer,
    requests: () => Promise<T>,
    waiting: number,
    change?: string,
  ): Promise<T> {
    await other.query('begin');
    await other.query('select id from players where id = $1 for update', [player.id]);
    const pending = requests();
    try {
      await lockWaits(waiting);
      if (change !== undefined) await other.query(change, [player.id]);
    } finally {
      await other.query('commit');
    }
    return pending;
  }

  const sessionOf = (id: string) =>
    t.store.db
      .selectFrom('haggle_sessions')
      .select(['status', 'rounds_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const affordable = async () => {
    const product = (await client.inStockProducts()).find(
      (candidate) => candidate.market_price <= 40 && candidate.stock_quantity >= 2,
    );
    if (product === undefined) throw new Error('no product');
    return product;
  };

  it('should refuse a turn whose key was replaced while it was being written, writing nothing', async () => {
    const player = await client.newPlayer('rotated');
    const sessionId = await client.countered(player, await affordable());
    const offer = await whileHeld(
      player,
      () => client.offer(player, sessionId, 1),
      1,
      `update players set api_key_hash = repeat('0', 64) where id = $1`,
    );
    expect(offer.status).toBe(401);
    expect(offer.body.error).toMatch(/replaced while the request waited/);
    expect(await sessionOf(sessionId)).toEqual({ status: 'active', rounds_count: 1 });
    await expectInvariants(t, startingCents);
  });

  it('should refuse a deal whose credits went while it was being written, writing nothing', async () => {
    const player = await client.newPlayer('spent');
    const sessionId = await client.countered(player, await affordable());
    const accept = await whileHeld(
      player,
      () => client.accept(player, sessionId),
      1,
      'update players set credits_cents = 1 where id = $1',
    );
    startingCents.set(player.id, 1);
    expect(accept.status).toBe(402);
    expect(accept.body.code).toBe('insufficient_credits');
    expect(await sessionOf(sessionId)).toEqual({ status: 'active', rounds_count: 1 });
    await expectInvariants(t, startingCents);
    await expectStockMatches(t, initialStock);
  });

  it("should decide again the deal that finds the player's totals moved by another, keeping ranks exact", async () => {
    const player = await client.newPlayer('twice');
    const [one, two] = (await client.inStockProducts()).filter(
      (candidate) => candidate.market_price <= 40 && candidate.stock_quantity >= 2,
    );
    if (one === undefined || two === undefined) throw new Error('no products');
    const first = await client.countered(player, one);
    const second = await client.countered(player, two);
    // Both are decided on the same totals; whichever writes second finds them moved.
    const [a, b] = await whileHeld(
      player,
      () => Promise.all([client.accept(player, first), client.accept(player, second)]),
      2,
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data.new_credits).not.toBe(a.body.data.new_credits);
    await expectInvariants(t, startingCents);
    await expectStockMatches(t, initialStock);
    await expectRanksMatchTransactions(client, player);
  });
});
