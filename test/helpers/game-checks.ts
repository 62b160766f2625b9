import { expect } from 'vitest';
import { STARTING_CREDITS_CENTS } from '../../src/modules/players/players.service.js';
import type { TestApp } from './app.js';
import type { GameClient, TestPlayer } from './game.js';

// What must hold of the game's data after anything: the books balance, stock matches the deals,
// ranks follow from the deals, and no answer carried a secret.

/**
 * The books must balance after anything: every credit a player started with is either still
 * theirs or paid in a transaction; stock went down once per transaction; and accepted sessions
 * and transactions match one to one.
 */
export async function expectInvariants(
  t: TestApp,
  startingCentsByPlayer: Map<string, number>,
): Promise<void> {
  const { db } = t.store;
  const players = await db
    .selectFrom('players')
    .select(['id', 'credits_cents', 'total_spent_cents', 'total_market_cents'])
    .execute();
  const transactions = await db.selectFrom('transactions').selectAll().execute();
  for (const player of players) {
    const starting = startingCentsByPlayer.get(player.id) ?? STARTING_CREDITS_CENTS;
    const paid = transactions.filter((row) => row.player_id === player.id);
    const spent = paid.reduce((sum, row) => sum + row.final_price_cents, 0);
    expect(player.credits_cents + spent).toBe(starting);
    expect(player.total_spent_cents).toBe(spent);
    expect(player.total_market_cents).toBe(paid.reduce((sum, row) => sum + row.market_cents, 0));
    expect(player.credits_cents).toBeGreaterThanOrEqual(0);
  }
  const accepted = await db
    .selectFrom('haggle_sessions')
    .select(['id', 'final_price_cents'])
    .where('status', '=', 'accepted')
    .execute();
  expect(new Set(accepted.map((row) => row.id))).toEqual(
    new Set(transactions.map((row) => row.session_id)),
  );
  for (const session of accepted) {
    expect(transactions.find((row) => row.session_id === session.id)?.final_price_cents).toBe(
      session.final_price_cents,
    );
  }
}

/** Stock consumed per product equals the transactions for it. */
export async function expectStockMatches(
  t: TestApp,
  initialStock: Map<string, number>,
): Promise<void> {
  const products = await t.store.db
    .selectFrom('products')
    .select(['id', 'stock_quantity'])
    .execute();
  const transactions = await t.store.db.selectFrom('transactions').select('product_id').execute();
  for (const product of products) {
    const sold = transactions.filter((row) => row.product_id === product.id).length;
    expect(product.stock_quantity).toBe(
      (initialStock.get(product.id) ?? product.stock_quantity) - sold,
    );
  }
}

export async function stockSnapshot(t: TestApp): Promise<Map<string, number>> {
  const rows = await t.store.db.selectFrom('products').select(['id', 'stock_quantity']).execute();
  return new Map(rows.map((row) => [row.id, row.stock_quantity]));
}

/**
 * Asserts that nothing secret ever left the server in any response this client saw: no API key
 * outside the one response that issues it, no key hash, no seller secret, no floor or other
 * seller parameter.
 */
export async function expectNoSecretsIn(client: GameClient): Promise<void> {
  const hashes = await client.t.store.db.selectFrom('players').select('api_key_hash').execute();
  const secret = await client.t.store.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'seller_secret')
    .executeTakeFirst();
  const all = client.bodies.join('\n');
  const issued = client.keyBodies.join('\n');
  expect(all).not.toMatch(/hg_[0-9a-f]{48}/);
  for (const { api_key_hash } of hashes) {
    expect(all).not.toContain(api_key_hash);
    expect(issued).not.toContain(api_key_hash);
  }
  if (secret !== undefined) expect(all + issued).not.toContain(secret.value);
  expect(all + issued).not.toMatch(
    /"(floor\w*|opening_ask_\w+|\w*_hash|seller_secret|reciprocity\w*|pace)"\s*:/i,
  );
}

interface RankedEntry {
  id: string;
  rank: number;
  score: number;
  items_purchased: number;
}

/**
 * Ranks recomputed from the transactions alone must equal what the leaderboard and every
 * player's stats say: the stored scores, deal counts and per-score counts never drift from the
 * deals that made them. `viewer` is any player (stats need a key).
 */
export async function expectRanksMatchTransactions(
  client: GameClient,
  viewer: TestPlayer,
): Promise<void> {
  const { db } = client.t.store;
  const transactions = await db.selectFrom('transactions').selectAll().execute();
  const totals = new Map<
    string,
    { market: number; spent: number; deals: number; first: string; best: number }
  >();
  for (const row of transactions) {
    const total = totals.get(row.player_id) ?? {
      market: 0,
      spent: 0,
      deals: 0,
      first: row.created_at,
      best: -Infinity,
    };
    total.market += row.market_cents;
    total.spent += row.final_price_cents;
    total.deals += 1;
    total.best = Math.max(
      total.best,
      Math.round(((row.market_cents - row.final_price_cents) * 10_000) / row.market_cents) / 100,
    );
    if (row.created_at < total.first) total.first = row.created_at;
    totals.set(row.player_id, total);
  }
  const expected = [...totals].map(([id, total]) => ({
    id,
    ...total,
    score: Math.floor((total.market * 200 + total.spent) / (total.spent * 2)),
  }));
  const rankOf = (score: number) => 1 + expected.filter((other) => other.score > score).length;
  expected.sort(
    (a, b) =>
      b.score - a.score ||
      b.market - a.market ||
      a.first.localeCompare(b.first) ||
      (a.id < b.id ? -1 : 1),
  );

  const board = (await client.get<RankedEntry[]>('/api/leaderboard?limit=100', viewer)).body.data;
  expect(board.map((entry) => entry.id)).toEqual(expected.slice(0, 100).map((entry) => entry.id));
  for (const [index, entry] of board.entries()) {
    const want = expected[index];
    expect(entry.rank).toBe(rankOf(want?.score ?? NaN));
    expect(entry.score).toBe((want?.score ?? NaN) / 100);
    expect(entry.items_purchased).toBe(want?.deals);
  }
  for (const want of expected) {
    const stats = (
      await client.get<{ rank: number | null; score: number; best_deal_percentage: number }>(
        `/api/players/${want.id}/stats`,
        viewer,
      )
    ).body.data;
    expect(stats.rank).toBe(rankOf(want.score));
    expect(stats.score).toBe(want.score / 100);
    expect(stats.best_deal_percentage).toBe(want.best);
  }
  // A score's count is the sum of its shards (PostgreSQL sums as a bigint, sent as text).
  const counts = await db
    .selectFrom('leaderboard_scores')
    .select((eb) => ['score_hundredths', eb.fn.sum<number | string>('players').as('players')])
    .groupBy('score_hundredths')
    .having((eb) => eb.fn.sum('players'), '<>', 0)
    .execute();
  const byScore = new Map<number, number>();
  for (const { score } of expected) byScore.set(score, (byScore.get(score) ?? 0) + 1);
  expect(new Map(counts.map((row) => [row.score_hundredths, Number(row.players)]))).toEqual(
    byScore,
  );
}
