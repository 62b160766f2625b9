import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import { expect } from 'vitest';
import {
  AcceptResult,
  Message,
  OfferResult,
  SellerResponse,
  Session,
  SessionDetail,
  StartedSession,
} from '../../src/modules/haggle/haggle.schemas.js';
import { Product } from '../../src/modules/products/products.schemas.js';
import { Transaction } from '../../src/modules/transactions/transactions.schemas.js';
import type { TestApp } from './app.js';

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

/**
 * Limits high enough that suites registering many players or firing many requests test the game,
 * not the rate limiter (which has its own tests).
 */
export const UNLIMITED = {
  REGISTRATION_RATE_LIMIT_PER_HOUR: '1000000',
  GAME_RATE_LIMIT_PER_MINUTE: '1000000',
} as const;

export interface TestPlayer {
  id: string;
  username: string;
  email: string;
  key: string;
  auth: { authorization: string };
}

/**
 * Talks to the app through `inject` and keeps every response body it saw, so a suite can assert
 * at the end that no response ever carried a key, a hash or a seller secret.
 */
export class GameClient {
  readonly bodies: string[] = [];
  /** Responses that may carry an API key: registration (201) and key rotation. */
  readonly keyBodies: string[] = [];

  constructor(readonly t: TestApp) {}

  async request<T = Record<string, unknown>>(
    options: InjectOptions,
  ): Promise<{ status: number; body: Envelope<T>; response: LightMyRequestResponse }> {
    const response = await this.t.app.inject(options);
    const url = typeof options.url === 'string' ? options.url : '';
    const issuesKey =
      options.method === 'POST' &&
      ((url === '/api/players' && response.statusCode === 201) || url.endsWith('/rotate-key'));
    (issuesKey ? this.keyBodies : this.bodies).push(response.body);
    return { status: response.statusCode, body: response.json<Envelope<T>>(), response };
  }

  get<T = Record<string, unknown>>(url: string, player?: TestPlayer) {
    return this.request<T>({ method: 'GET', url, headers: player?.auth });
  }

  post<T = Record<string, unknown>>(url: string, payload: object, player?: TestPlayer) {
    return this.request<T>({ method: 'POST', url, payload, headers: player?.auth });
  }

  /** A new player with a fresh, unique name. */
  async newPlayer(prefix = 'p'): Promise<TestPlayer> {
    const username = `${prefix}_${randomBytes(5).toString('hex')}`;
    const email = `${username}@example.com`;
    const { status, body } = await this.post<{ id: string; api_key: string }>('/api/players', {
      username,
      email,
    });
    expect(status).toBe(201);
    const key = body.data.api_key;
    return { id: body.data.id, username, email, key, auth: { authorization: `Bearer ${key}` } };
  }

  async products(): Promise<ProductData[]> {
    const { body } = await this.get<ProductData[]>('/api/products');
    return body.data;
  }

  /** In-stock products, most expensive first (deterministic choice for tests). */
  async inStockProducts(): Promise<ProductData[]> {
    return (await this.products())
      .filter((product) => product.stock_quantity > 0)
      .sort((a, b) => b.market_price - a.market_price || a.id.localeCompare(b.id));
  }

  async start(player: TestPlayer, productId: string) {
    return this.post<StartData>(
      '/api/haggle/start',
      { player_id: player.id, product_id: productId },
      player,
    );
  }

  /** An offer; with `round`, the round it is for (a retry of a played round is answered again). */
  async offer(
    player: TestPlayer,
    sessionId: string,
    amount: number | string,
    message?: string,
    round?: number,
  ) {
    return this.post<OfferData>(
      '/api/haggle/offer',
      {
        session_id: sessionId,
        offer_amount: amount,
        ...(message === undefined ? {} : { message }),
        ...(round === undefined ? {} : { round }),
      },
      player,
    );
  }

  /** Opens a session and gets one counter from the seller (an offer at 60 % of market). */
  async countered(player: TestPlayer, product: ProductData): Promise<string> {
    const started = await this.start(player, product.id);
    expect(started.status).toBe(201);
    const offer = await this.offer(
      player,
      started.body.data.id,
      Math.floor(product.market_price * 60) / 100,
    );
    expect(offer.body.data.seller_response.action).toBe('counter');
    return started.body.data.id;
  }

  async accept(player: TestPlayer, sessionId: string) {
    return this.post<AcceptData>('/api/haggle/accept', { session_id: sessionId }, player);
  }

  async session(player: TestPlayer, sessionId: string) {
    return this.get<SessionDetailData>(`/api/haggle/${sessionId}`, player);
  }
}

// Response shapes come from the route schemas, so a schema change shows up here at once.
export type ProductData = Static<typeof Product>;
export type SessionData = Static<typeof Session>;
export type StartData = Static<typeof StartedSession>;
export type SellerResponseData = Static<typeof SellerResponse>;
export type OfferData = Static<typeof OfferResult>;
export type TransactionData = Static<typeof Transaction>;
export type AcceptData = Static<typeof AcceptResult>;
export type MessageData = Static<typeof Message>;
export type SessionDetailData = Static<typeof SessionDetail>;

/** Credits → integer cents, for exact comparisons in tests. */
export const cents = (credits: number): number => Math.round(credits * 100);
