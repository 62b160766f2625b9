import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Db } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { MAX_ROUNDS, openingMessage, sellerTerms } from '../../seller/index.js';
import { findProduct } from '../products/products.repository.js';
import { productDemandPercent } from '../products/products.schemas.js';
import type { ProductRow } from '../products/products.tables.js';
import {
  addMinutes,
  cooldownEnd,
  idleCutoff,
  isIdle,
  newMessage,
  now,
  sellerContext,
  type HaggleDeps,
} from './haggle.context.js';
import {
  coolingDown,
  insufficientCredits,
  keyReplaced,
  outOfStock,
  tooManyActive,
} from './haggle.errors.js';
import {
  countDeals,
  lastEndedWithoutDeal,
  liveSessions,
  lockPlayerCredits,
} from './haggle.limits.repository.js';
import {
  appendMessages,
  findActiveSession,
  insertSession,
  listMessages,
} from './haggle.repository.js';
import { expireIdle, type Caller } from './haggle.turn.js';
import type { SessionRow } from './haggle.tables.js';

export interface StartOutcome {
  /** False when the player's active negotiation for the product was returned as it stands. */
  created: boolean;
  session: SessionRow;
  product: ProductRow;
  /** The seller's latest words: the greeting while no offer was made. */
  sellerWords: string;
}

/**
 * Opens a negotiation, or returns the player's active one for the product as it stands. In one
 * transaction, taking its locks in the order every haggle transaction does (the session, the
 * player, the cool-down): the product is in stock and the player has credits; an idle session
 * for the pair is expired (and its cool-down applies); the cool-down; the cap on active
 * negotiations, counted under the player's lock so concurrent starts cannot pass it together.
 * As a turn does, it refuses (401) a key whose rotation committed while it waited for that lock.
 */
export async function startSession(
  deps: HaggleDeps,
  { playerId, keyHash }: Caller,
  input: { player_id: string; product_id: string },
): Promise<StartOutcome> {
  if (input.player_id !== playerId) {
    throw new AppError(
      'forbidden',
      'player_id must be your own id: you can only negotiate for yourself.',
    );
  }
  const { db } = deps.store;
  const pair = { playerId, productId: input.product_id };
  try {
    const outcome = await db.transaction().execute(async (trx) => {
      const product = await findProduct(trx, input.product_id);
      if (product === undefined) throw notFound('Product');
      const existing = await findActiveSession(trx, pair);
      const player = await lockPlayerCredits(trx, playerId);
      if (player === undefined) throw notFound('Player');
      if (player.keyHash !== keyHash) throw keyReplaced();
      if (player.creditsCents <= 0) {
        throw insufficientCredits('You have no credits left: a negotiation needs credits above 0.');
      }
      if (product.stock_quantity <= 0) throw outOfStock();
      const at = now();
      if (existing !== undefined && !isIdle(existing, at, deps.idleMinutes)) {
        return started(trx, false, existing, product);
      }
      // Locked after the player: an ending in another process is seen.
      if (existing !== undefined) await expireIdle(trx, deps, existing);
      const last = await lastEndedWithoutDeal(trx, pair);
      const coolsUntil = last === undefined ? null : cooldownEnd(last, deps.cooldownMinutes);
      const waitMs = coolsUntil === null ? 0 : Date.parse(coolsUntil) - Date.parse(at);
      // A cool-down is an answer to give after the expiry above is committed.
      if (coolsUntil !== null && waitMs > 0) return { coolsUntil, waitMs };
      const live = await liveSessions(trx, playerId, idleCutoff(at, deps.idleMinutes));
      if (live.count >= deps.maxActive) {
        // The earliest a place can free itself: the longest-idle negotiation expiring.
        const frees = addMinutes(live.earliestMove ?? at, deps.idleMinutes);
        throw tooManyActive(deps.maxActive, Date.parse(frees) - Date.parse(at));
      }
      const session = await openSession(trx, deps, playerId, product, at);
      return started(trx, true, session, product);
    });
    if ('waitMs' in outcome) throw coolingDown(outcome.coolsUntil, outcome.waitMs);
    return outcome;
  } catch (error) {
    // Another request for the same pair committed first: the unique index kept it to one session.
    if (!isUniqueViolation(error)) throw error;
    const existing = await findActiveSession(db, pair);
    const product = await findProduct(db, input.product_id);
    if (existing === undefined || product === undefined) throw error;
    return started(db, false, existing, product);
  }
}

/** The session with the player's own hidden terms, fixed now, and the seller's greeting. */
async function openSession(
  trx: Transaction<Database>,
  deps: HaggleDeps,
  playerId: string,
  product: ProductRow,
  at: string,
): Promise<SessionRow> {
  const earlierDeals = await countDeals(trx, { playerId, productId: product.id });
  const terms = sellerTerms(
    {
      productId: product.id,
      category: product.category,
      marketCents: product.market_cents,
      stock: product.stock_quantity,
    },
    { playerId, earlierDeals },
    productDemandPercent(product, at),
    deps.sellerSecret,
  );
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
    last_move_at: at,
    ended_at: null,
  };
  await insertSession(trx, session);
  const text = openingMessage(sellerContext(session, product, deps.sellerSecret));
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

/** The outcome with the seller's latest words (a resumed session never gets the greeting again). */
async function started(
  db: Db,
  created: boolean,
  session: SessionRow,
  product: ProductRow,
): Promise<StartOutcome> {
  const messages = await listMessages(db, session.id);
  const latest = messages.findLast((message) => message.sender === 'seller');
  return { created, session, product, sellerWords: latest?.message ?? '' };
}
