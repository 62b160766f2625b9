import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import type { DialectName } from './databases.js';
import { expectInvariants, expectNoSecretsIn } from './game-checks.js';
import {
  GameClient,
  type ProductData,
  type StartData,
  type TestPlayer,
  UNLIMITED,
} from './game.js';

/** The idle limit and the cap on active negotiations that the suites about time play under. */
export const IDLE_MINUTES = 15;
export const MAX_ACTIVE = 3;
export const TIMED = {
  ...UNLIMITED,
  HAGGLE_IDLE_MINUTES: String(IDLE_MINUTES),
  HAGGLE_MAX_ACTIVE: String(MAX_ACTIVE),
} as const;

export interface HaggleSuite {
  readonly t: TestApp;
  readonly client: GameClient;
  /** The in-stock products a fresh player can afford, most expensive first, as last read. */
  readonly products: ProductData[];
  /** Reads the products again (after deals have taken stock). */
  readProducts: () => Promise<void>;
  /** An affordable product, picked by position for variety. */
  affordable: (index?: number) => ProductData;
  /** Starts a negotiation that must open (201) and returns it. */
  openSession: (player: TestPlayer, product?: ProductData) => Promise<StartData>;
  /** Sets a player's credits in the database, behind the game's back. */
  setCredits: (player: TestPlayer, cents: number) => Promise<void>;
  /** A negotiation's row as stored, hidden terms included. */
  sessionRow: (sessionId: string) => ReturnType<typeof readSessionRow>;
}

const readSessionRow = (t: TestApp, sessionId: string) =>
  t.store.db
    .selectFrom('haggle_sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();

/**
 * The game on a fresh database of `dialect` for the enclosing `describe`, played through a
 * {@link GameClient}. `maxPrice` bounds the products the suite picks (a fresh player holds 100
 * credits). With `checkBooks`, the suite ends by asserting that no answer carried a secret and
 * that the books balance.
 */
export function haggleSuite(
  dialect: DialectName,
  options: { env?: Record<string, string>; maxPrice: number; checkBooks?: boolean },
): HaggleSuite {
  let t: TestApp | undefined;
  let client: GameClient | undefined;
  let products: ProductData[] = [];
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the game starts before the tests run');
    return value;
  };
  const readProducts = async () => {
    products = (await ready(client).inStockProducts()).filter(
      (product) => product.market_price <= options.maxPrice,
    );
  };
  const affordable = (index = 0): ProductData => {
    const product = products[index % products.length];
    if (product === undefined) throw new Error('no affordable product seeded');
    return product;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, options.env ?? UNLIMITED);
    client = new GameClient(t);
    await readProducts();
  });
  afterAll(async () => {
    try {
      if (options.checkBooks === true && t !== undefined && client !== undefined) {
        await expectNoSecretsIn(client);
        await expectInvariants(t, new Map());
      }
    } finally {
      await t?.close();
    }
  });

  return {
    get t() {
      return ready(t);
    },
    get client() {
      return ready(client);
    },
    get products() {
      return products;
    },
    readProducts,
    affordable,
    openSession: async (player, product = affordable()) => {
      const { status, body } = await ready(client).start(player, product.id);
      expect(status).toBe(201);
      return body.data;
    },
    setCredits: async (player, cents) => {
      const { db } = ready(t).store;
      await db
        .updateTable('players')
        .set({ credits_cents: cents })
        .where('id', '=', player.id)
        .execute();
    },
    sessionRow: (sessionId) => readSessionRow(ready(t), sessionId),
  };
}

/**
 * Lets a player reopen every product at once, behind the game's back: their negotiations that
 * ended without a deal ended longer ago than the cool-down.
 */
export async function endCooldowns(t: TestApp, playerId: string): Promise<void> {
  const minutes = t.config.haggleCooldownMinutes + 1;
  await t.store.db
    .updateTable('haggle_sessions')
    .set({ ended_at: new Date(Date.now() - minutes * 60_000).toISOString() })
    .where('player_id', '=', playerId)
    .where('status', 'in', ['rejected', 'abandoned', 'expired'])
    .execute();
}

/** Offers that keep moving up but stay under 55 % of market: below every floor, never insulting. */
export const patientOffers = (product: ProductData): number[] =>
  Array.from({ length: 10 }, (_, i) => Math.floor(product.market_price * (45 + i)) / 100);
