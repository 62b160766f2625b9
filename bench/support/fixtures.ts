import { createHash, randomUUID } from 'node:crypto';
import { sellerTerms, type Category } from '../../src/seller/index.js';
import type { Direct } from './direct.js';

/** A player the benchmark can authenticate as. */
export interface BenchPlayer {
  id: string;
  key: string;
}

export interface BenchProduct {
  id: string;
  category: Category;
  market_cents: number;
  stock_quantity: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Deterministic keys, so a run can authenticate as any player it inserted. */
const keyFor = (tag: string) => `hg_${sha256(`bench:${tag}`).slice(0, 48)}`;

/** A small deterministic generator (mulberry32): the same data on every run and dialect. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function products(direct: Direct): Promise<BenchProduct[]> {
  const rows = await direct.all<BenchProduct>(
    'select id, category, market_cents, stock_quantity from products order by id',
  );
  return rows;
}

/** Enough stock that a benchmark measures deals, not sold-out answers. */
export async function restock(direct: Direct): Promise<void> {
  await direct.run('update products set stock_quantity = 1000000');
}

function playerRow(tag: string, at: string) {
  const key = keyFor(tag);
  return {
    key,
    row: {
      id: randomUUID(),
      username: `bench_${tag}`,
      username_key: `bench_${tag}`,
      email: `bench_${tag}@example.com`,
      email_key: `bench_${tag}@example.com`,
      api_key_hash: sha256(key),
      credits_cents: 10_000,
      total_market_cents: 0,
      total_spent_cents: 0,
      score_hundredths: null as number | null,
      deals_count: 0,
      first_deal_at: null as string | null,
      created_at: at,
      updated_at: at,
    },
  };
}

/**
 * Inserts `count` players as the game would have left them: 3 in 4 have made 1–3 deals (an
 * accepted session and a transaction each, at 60–130 % of market), credits + spent = 100.00,
 * and the ranking columns and per-score counts agree with the deals.
 */
export async function addRankedPlayers(
  direct: Direct,
  catalog: BenchProduct[],
  first: number,
  count: number,
): Promise<BenchPlayer[]> {
  const cheap = catalog.filter((product) => product.market_cents <= 3000);
  if (cheap.length === 0) throw new Error('no product at or under 30.00 credits');
  const next = random(first + 1);
  const base = Date.parse('2026-01-01T00:00:00Z');
  const out: BenchPlayer[] = [];
  const chunk = 10_000;
  for (let start = first; start < first + count; start += chunk) {
    const players = [];
    const sessions = [];
    const transactions = [];
    for (let i = start; i < Math.min(first + count, start + chunk); i++) {
      const at = new Date(base + i * 1000).toISOString();
      const { key, row } = playerRow(`r${i}`, at);
      out.push({ id: row.id, key });
      const deals = i % 4;
      for (let d = 0; d < deals; d++) {
        const product = cheap[Math.floor(next() * cheap.length)] as BenchProduct;
        const market = product.market_cents;
        const price = Math.max(1, Math.round(market * (0.6 + next() * 0.7)));
        if (row.total_spent_cents + price > 10_000) break;
        const dealAt = new Date(base + i * 1000 + (d + 1) * 100).toISOString();
        const sessionId = randomUUID();
        sessions.push({
          id: sessionId,
          player_id: row.id,
          product_id: product.id,
          status: 'accepted',
          current_offer_cents: price,
          counter_offer_cents: null,
          rounds_count: 1,
          max_rounds: 10,
          final_price_cents: price,
          floor_cents: Math.min(price, Math.ceil(market * 0.6)),
          opening_ask_cents: market,
          started_at: at,
          last_move_at: dealAt,
          ended_at: dealAt,
        });
        transactions.push({
          id: randomUUID(),
          player_id: row.id,
          product_id: product.id,
          session_id: sessionId,
          quantity: 1,
          market_cents: market,
          final_price_cents: price,
          status: 'completed',
          created_at: dealAt,
        });
        row.credits_cents -= price;
        row.total_spent_cents += price;
        row.total_market_cents += market;
        row.deals_count += 1;
        row.first_deal_at ??= dealAt;
      }
      if (row.total_spent_cents > 0) {
        row.score_hundredths = Math.floor(
          (row.total_market_cents * 200 + row.total_spent_cents) / (row.total_spent_cents * 2),
        );
      }
      players.push(row);
    }
    await direct.insert('players', players);
    await direct.insert('haggle_sessions', sessions);
    await direct.insert('transactions', transactions);
  }
  // The per-score counts, rebuilt from the players, each in its own shard as its deals would
  // have left it (the last character's code, modulo 8: `scoreMoves`).
  const lastCode =
    direct.dialect === 'postgres' ? 'ascii(right(id, 1))' : 'unicode(substr(id, -1))';
  await direct.run('delete from leaderboard_scores');
  await direct.run(`insert into leaderboard_scores (score_hundredths, shard, players)
    select score_hundredths, ${lastCode} % 8, count(*) from players
    where score_hundredths is not null group by 1, 2`);
  return out;
}

export interface OpenSession {
  id: string;
  player: BenchPlayer;
  marketCents: number;
  counterCents: number;
}

/**
 * `count` new players, each with one active session opened as the service opens one (the
 * seller's terms from the same secret, the greeting stored). `countered`: the player has made
 * one offer and the seller has answered with its opening ask, so the session can be accepted.
 */
export async function addOpenSessions(
  direct: Direct,
  catalog: BenchProduct[],
  options: { tag: string; count: number; countered: boolean; sellerSecret: string },
): Promise<OpenSession[]> {
  const affordable = catalog.filter((product) => product.market_cents <= 6000);
  const at = new Date().toISOString();
  const out: OpenSession[] = [];
  const chunk = 5000;
  for (let start = 0; start < options.count; start += chunk) {
    const players = [];
    const sessions = [];
    const messages = [];
    for (let i = start; i < Math.min(options.count, start + chunk); i++) {
      const { key, row } = playerRow(`${options.tag}${i}`, at);
      players.push(row);
      const product = affordable[i % affordable.length] as BenchProduct;
      const terms = sellerTerms(
        {
          productId: product.id,
          category: product.category,
          marketCents: product.market_cents,
          stock: product.stock_quantity,
        },
        { playerId: row.id, earlierDeals: 0 },
        0,
        options.sellerSecret,
      );
      const id = randomUUID();
      const offer = Math.ceil(product.market_cents * 0.6);
      sessions.push({
        id,
        player_id: row.id,
        product_id: product.id,
        status: 'active',
        current_offer_cents: options.countered ? offer : null,
        counter_offer_cents: options.countered ? terms.openingAskCents : null,
        rounds_count: options.countered ? 1 : 0,
        max_rounds: 10,
        final_price_cents: null,
        floor_cents: terms.floorCents,
        opening_ask_cents: terms.openingAskCents,
        started_at: at,
        last_move_at: at,
        ended_at: null,
      });
      const message = (position: number, sender: string, offerCents: number, round: number) => ({
        id: randomUUID(),
        session_id: id,
        position,
        sender,
        message: sender === 'seller' ? 'Welcome.' : 'An offer.',
        offer_cents: offerCents,
        round,
        created_at: at,
      });
      messages.push(message(0, 'seller', terms.openingAskCents, 0));
      if (options.countered) {
        messages.push(
          message(1, 'player', offer, 1),
          message(2, 'seller', terms.openingAskCents, 1),
        );
      }
      out.push({
        id,
        player: { id: row.id, key },
        marketCents: product.market_cents,
        counterCents: terms.openingAskCents,
      });
    }
    await direct.insert('players', players);
    await direct.insert('haggle_sessions', sessions);
    await direct.insert('haggle_messages', messages);
  }
  return out;
}
