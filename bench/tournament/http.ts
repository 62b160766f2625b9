import { randomBytes } from 'node:crypto';
import type { Category } from '../../src/seller/index.js';
import type { Game, Opening, Outcome, Reply } from './game.js';
import type { TournamentProduct } from './play.js';

interface Envelope<T> {
  success: boolean;
  data: T;
  code?: string;
  error?: string;
}

const toCents = (credits: number) => Math.round(credits * 100);
const toCredits = (cents: number) => cents / 100;

/** A tiny client for the game API; every failure is thrown with the server's code. */
export class Api {
  constructor(readonly baseUrl: string) {}

  async call<T>(
    method: string,
    path: string,
    body?: object,
    key?: string,
  ): Promise<{ status: number; body: Envelope<T> }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Envelope<T> };
  }

  async products(): Promise<TournamentProduct[]> {
    const { body } = await this.call<
      {
        id: string;
        name: string;
        category: Category;
        market_price: number;
        stock_quantity: number;
      }[]
    >('GET', '/api/products?in_stock=true');
    return body.data.map((p) => ({
      id: p.id,
      name: p.name,
      category: p.category,
      marketCents: toCents(p.market_price),
      stock: p.stock_quantity,
    }));
  }

  async newPlayer(): Promise<{ id: string; key: string }> {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const { status, body } = await this.call<{ id: string; api_key: string }>(
      'POST',
      '/api/players',
      {
        username: name,
        email: `${name}@tournament.example`,
      },
    );
    if (status !== 201)
      throw new Error(
        `registration failed (${status} ${body.code ?? ''}): start the server with REGISTRATION_RATE_LIMIT_PER_HOUR=1000000 GAME_RATE_LIMIT_PER_MINUTE=1000000`,
      );
    return { id: body.data.id, key: body.data.api_key };
  }
}

/** One negotiation over HTTP, for a fresh player; null when the product is out of stock. */
export class HttpGame implements Game {
  #rounds = 0;
  #price: number | null = null;

  private constructor(
    private readonly api: Api,
    private readonly key: string,
    private readonly sessionId: string,
    readonly opening: Opening,
  ) {}

  static async open(api: Api, product: TournamentProduct): Promise<HttpGame | null> {
    const player = await api.newPlayer();
    const started = await api.call<{ id: string; opening_ask: number }>(
      'POST',
      '/api/haggle/start',
      { player_id: player.id, product_id: product.id },
      player.key,
    );
    if (started.status === 409) return null;
    if (started.status !== 201)
      throw new Error(`start failed: ${started.status} ${started.body.code ?? ''}`);
    const ask = started.body.data.opening_ask;
    return new HttpGame(api, player.key, started.body.data.id, {
      marketCents: product.marketCents,
      openingAskCents: toCents(ask),
    });
  }

  async offer(cents: number): Promise<Reply> {
    const { status, body } = await this.api.call<{
      seller_response: { action: Reply['action']; counter_offer: number | null; round: number };
      session: { status: string };
    }>(
      'POST',
      '/api/haggle/offer',
      { session_id: this.sessionId, offer_amount: toCredits(cents) },
      this.key,
    );
    if (status !== 200) throw new Error(`offer failed: ${status} ${body.code ?? ''}`);
    const reply = body.data.seller_response;
    this.#rounds = reply.round;
    if (reply.action === 'accept') this.#price = cents;
    return {
      action: reply.action,
      counterCents: reply.counter_offer === null ? null : toCents(reply.counter_offer),
      round: reply.round,
      ended: body.data.session.status !== 'active',
    };
  }

  async accept(): Promise<boolean> {
    const { status, body } = await this.api.call<{ session: { final_price: number } }>(
      'POST',
      '/api/haggle/accept',
      { session_id: this.sessionId },
      this.key,
    );
    if (status !== 200) return false;
    this.#price = toCents(body.data.session.final_price);
    return true;
  }

  outcome(): Outcome {
    return { priceCents: this.#price, rounds: this.#rounds };
  }
}
