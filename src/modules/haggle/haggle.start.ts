import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { MAX_ROUNDS, openingMessage, sellerTerms } from '../../seller/index.js';
import { findPlayer } from '../players/players.repository.js';
import { findProduct } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import { coolingDown, insufficientCredits, outOfStock } from './haggle.errors.js';
import { newMessage } from './haggle.messages.js';
import {
  appendMessages,
  findActiveSession,
  insertSession,
  listMessages,
  lockCooldown,
} from './haggle.repository.js';
import { now, sellerContext, type HaggleDeps } from './haggle.session.js';
import type { SessionRow } from './haggle.tables.js';

export interface StartOutcome {
  created: boolean;
  session: SessionRow;
  product: ProductRow;
  greeting: string;
}

export async function startSession(
  deps: HaggleDeps,
  playerId: string,
  input: { player_id: string; product_id: string },
): Promise<StartOutcome> {
  if (input.player_id !== playerId) {
    throw new AppError(
      'forbidden',
      'player_id must be your own id: you can only negotiate for yourself.',
    );
  }
  const { db } = deps.store;
  try {
    return await db.transaction().execute(async (trx) => {
      const product = await findProduct(trx, input.product_id);
      if (product === undefined) throw notFound('Product');
      const player = await findPlayer(trx, playerId);
      if (player === undefined) throw notFound('Player');
      if (player.credits_cents <= 0) throw insufficientCredits();
      if (product.stock_quantity <= 0) throw outOfStock();
      const pair = { playerId, productId: product.id };
      // Locked before the active session is read, so an ending in another process is seen.
      const coolsUntil = await lockCooldown(trx, pair);
      const existing = await findActiveSession(trx, pair);
      if (existing !== undefined) return started(trx, false, existing, product);
      const waitMs = Date.parse(coolsUntil) - Date.now();
      if (waitMs > 0) throw coolingDown(coolsUntil, waitMs);
      const session = await openSession(trx, deps.sellerSecret, playerId, product);
      return started(trx, true, session, product);
    });
  } catch (error) {
    // Another request for the same pair committed first: the unique index kept it to one session.
    if (!isUniqueViolation(error)) throw error;
    const existing = await findActiveSession(db, { playerId, productId: input.product_id });
    const product = await findProduct(db, input.product_id);
    if (existing === undefined || product === undefined) throw error;
    return started(db, false, existing, product);
  }
}

async function openSession(
  trx: Transaction<Database>,
  sellerSecret: string,
  playerId: string,
  product: ProductRow,
): Promise<SessionRow> {
  const terms = sellerTerms(
    {
      productId: product.id,
      category: product.category,
      marketCents: product.market_cents,
      stock: product.stock_quantity,
    },
    sellerSecret,
  );
  const at = now();
  const session: SessionRow = {
    id: randomUUID(),
    player_id: playerId,
    product_id: product.id,
    status: 'active',
    current_offer_cents: null,
    counter_offer_cents: null,
    rounds_count: 0,
    max_rounds: MAX_ROUNDS,
    final_price_cents: null,
    floor_cents: terms.floorCents,
    opening_ask_cents: terms.openingAskCents,
    started_at: at,
    ended_at: null,
  };
  await insertSession(trx, session);
  const text = openingMessage(sellerContext(session, product, sellerSecret));
  await appendMessages(trx, [
    newMessage({
      sessionId: session.id,
      position: 0,
      sender: 'seller',
      text,
      offerCents: terms.openingAskCents,
      round: 0,
      at,
    }),
  ]);
  return session;
}

async function started(
  db: Kysely<Database>,
  created: boolean,
  session: SessionRow,
  product: ProductRow,
): Promise<StartOutcome> {
  const [greeting] = await listMessages(db, session.id);
  return { created, session, product, greeting: greeting?.message ?? '' };
}
