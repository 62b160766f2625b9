import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { expectNoSecretsIn, expectInvariants } from '../helpers/game-checks.js';
import {
  cents,
  GameClient,
  type ProductData,
  type TestPlayer,
  type TransactionData,
  UNLIMITED,
} from '../helpers/game.js';

interface Entry {
  id: string;
  username: string;
  total_market_value: number;
  total_spent: number;
  score: number;
  items_purchased: number;
  total_savings: number;
  rank: number;
}

describe.each(testDialects)('leaderboard and stats (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  const players: Record<'best' | 'tieFirst' | 'tieSecond' | 'worst' | 'idle', TestPlayer> =
    {} as never;
  let product: ProductData;

  /** Buys `target` by offering `priceCents` (at or above the ask, so the seller accepts it). */
  async function buyAt(player: TestPlayer, target: ProductData, priceCents: number): Promise<void> {
    const session = await client.start(player, target.id);
    const { body } = await client.offer(player, session.body.data.id, priceCents / 100);
    expect(body.data.seller_response.action).toBe('accept');
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    client = new GameClient(t);
    const candidates = (await client.inStockProducts()).filter(
      (candidate) => candidate.market_price <= 60 && candidate.stock_quantity >= 5,
    );
    const first = candidates[0];
    const second = candidates[1];
    if (first === undefined || second === undefined) throw new Error('need two products in stock');
    product = first;
    for (const name of ['best', 'tieFirst', 'tieSecond', 'worst', 'idle'] as const)
      players[name] = await client.newPlayer(name);

    // The two tied players pay the same price for the same product: equal scores.
    const generous = Math.ceil((cents(product.market_price) * 105) / 100);
    await buyAt(players.tieFirst, product, generous);
    await buyAt(players.tieSecond, product, generous);
    await buyAt(players.worst, product, Math.ceil((cents(product.market_price) * 125) / 100));
    // The best player haggles for five rounds, then takes the counter, below market by then.
    const session = await client.start(players.best, second.id);
    for (let percent = 70; percent < 75; percent++) {
      const { body } = await client.offer(
        players.best,
        session.body.data.id,
        Math.floor(second.market_price * percent) / 100,
      );
      expect(body.data.seller_response.action).toBe('counter');
    }
    const accepted = await client.accept(players.best, session.body.data.id);
    expect(accepted.status).toBe(200);
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await expectInvariants(t, new Map());
    await t.close();
  });

  it('should rank by score with equal scores sharing a rank (1, 2, 2, 4)', async () => {
    const { status, body } = await client.get<Entry[]>('/api/leaderboard');
    expect(status).toBe(200);
    expect(body.data.map((entry) => [entry.id, entry.rank])).toEqual([
      [players.best.id, 1],
      [players.tieFirst.id, 2],
      [players.tieSecond.id, 2],
      [players.worst.id, 4],
    ]);
    expect(body.data.find((entry) => entry.id === players.idle.id)).toBeUndefined();
    const [best, tie] = body.data;
    expect(best?.score).toBeGreaterThan(1);
    expect(tie?.score).toBe(
      Math.round(
        (cents(product.market_price) * 100) / Math.ceil((cents(product.market_price) * 105) / 100),
      ) / 100,
    );
  });

  it('should honour the limit and refuse one out of range', async () => {
    expect((await client.get<Entry[]>('/api/leaderboard?limit=2')).body.data).toHaveLength(2);
    for (const limit of ['0', '101', 'x']) {
      expect((await client.get(`/api/leaderboard?limit=${limit}`)).status).toBe(400);
    }
  });

  it('should give stats that agree with the transactions and the leaderboard', async () => {
    const board = (await client.get<Entry[]>('/api/leaderboard')).body.data;
    for (const player of Object.values(players)) {
      const stats = (
        await client.get<Record<string, number | null>>(`/api/players/${player.id}/stats`, player)
      ).body.data;
      const transactions = (
        await client.get<TransactionData[]>(`/api/transactions?player_id=${player.id}`, player)
      ).body.data;
      const entry = board.find((row) => row.id === player.id);
      expect(stats.total_transactions).toBe(transactions.length);
      const savings = transactions.reduce((sum, row) => sum + cents(row.savings), 0);
      expect(cents(stats.total_savings ?? NaN)).toBe(savings);
      expect(cents(stats.total_spent ?? NaN)).toBe(
        transactions.reduce((sum, row) => sum + cents(row.final_price), 0),
      );
      // A deal above market is a negative discount; with no deals the figure is 0.
      const best =
        transactions.length === 0
          ? 0
          : Math.max(
              ...transactions.map(
                (row) => Math.round((cents(row.savings) * 10_000) / cents(row.market_price)) / 100,
              ),
            );
      expect(stats.best_deal_percentage).toBe(best);
      expect(stats.rank).toBe(entry?.rank ?? null);
      expect(stats.score).toBe(entry?.score ?? 0);
      if (entry !== undefined) {
        expect(entry.items_purchased).toBe(transactions.length);
        expect(cents(entry.total_savings)).toBe(savings);
      }
      expect(stats.completed_sessions).toBe(transactions.length);
      expect(stats.active_sessions).toBe(0);
    }
  });

  it('should list transactions newest first, with product details, capped by limit', async () => {
    const all = (
      await client.get<
        (TransactionData & { created_at: string; name: string; category: string })[]
      >('/api/transactions', players.idle)
    ).body.data;
    expect(all).toHaveLength(4);
    const times = all.map((row) => row.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all[0]?.name).toEqual(expect.any(String));
    expect(
      (await client.get<unknown[]>('/api/transactions?limit=1', players.idle)).body.data,
    ).toHaveLength(1);
    expect((await client.get('/api/transactions?limit=101', players.idle)).status).toBe(400);
    expect((await client.get('/api/transactions?player_id=nope', players.idle)).status).toBe(400);
  });

  it('should page transactions with the Link header’s cursor, newest first, none twice', async () => {
    const all = (await client.get<{ id: string }[]>('/api/transactions', players.idle)).body.data;
    const seen: string[] = [];
    let url: string | undefined = '/api/transactions?limit=3';
    while (url !== undefined) {
      const { body, response } = await client.get<{ id: string }[]>(url, players.idle);
      seen.push(...body.data.map((row) => row.id));
      const link = response.headers.link as string | undefined;
      url = link === undefined ? undefined : new URL(/<([^>]+)>/.exec(link)?.[1] ?? '').search;
      if (url !== undefined) url = `/api/transactions${url}`;
    }
    expect(seen).toEqual(all.map((row) => row.id));
    expect(all.length).toBeGreaterThan(3);
    // A cursor continues the list it came from: everyone's, or one player's.
    const everyone = await client.get('/api/transactions?limit=1', players.idle);
    const cursor = /cursor=([^&>]+)/.exec(String(everyone.response.headers.link))?.[1] ?? '';
    expect(cursor).not.toBe('');
    const mine = `/api/transactions?limit=1&player_id=${players.idle.id}&cursor=${cursor}`;
    const refused = await client.get(mine, players.idle);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'cursor' }],
    });
  });
});
