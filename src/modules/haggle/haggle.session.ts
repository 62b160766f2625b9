import type { Kysely, Transaction } from 'kysely';
import type { Store } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { SellerContext } from '../../seller/index.js';
import { findProduct } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import { sessionNotActive } from './haggle.errors.js';
import { newMessage } from './haggle.messages.js';
import { lockOwnSession, startCooldown, type LockedSession } from './haggle.repository.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

/** The steps every haggle operation shares: finding the session, its product, the seller's view. */

/** What the haggle service needs besides the request: the database and the seller's secret. */
export interface HaggleDeps {
  store: Store;
  sellerSecret: string;
  /** Minutes a player waits to reopen a product after a negotiation on it ended without a deal. */
  cooldownMinutes: number;
}

export const now = (): string => new Date().toISOString();

/** The player's active session, locked, with their balance and the product (404 or 409 otherwise). */
export async function activeOwnSession(
  trx: Transaction<Database>,
  playerId: string,
  sessionId: string,
): Promise<LockedSession> {
  const locked = await lockOwnSession(trx, { sessionId, playerId });
  if (locked === undefined) throw notFound('Session');
  if (locked.session.status !== 'active') throw sessionNotActive(locked.session.status);
  return locked;
}

export async function productOf(db: Kysely<Database>, session: SessionRow): Promise<ProductRow> {
  const product = await findProduct(db, session.product_id);
  if (product === undefined) throw notFound('Product');
  return product;
}

/** The seller's view: its temperament comes from the player, the product and the secret. */
export function sellerContext(
  session: SessionRow,
  product: ProductRow,
  secret: string,
): SellerContext {
  return {
    sessionId: session.id,
    playerId: session.player_id,
    productId: session.product_id,
    secret,
    productName: product.name,
    marketCents: product.market_cents,
    floorCents: session.floor_cents,
    openingAskCents: session.opening_ask_cents,
  };
}

/** What the player did outside an offer (accepting, walking away), after the last message. */
export function playerNote(
  session: SessionRow,
  text: string,
  offerCents: number | null,
  at: string,
): MessageRow {
  // An active session holds the greeting and two messages per round (offer and answer); a
  // note ends it. The unique (session, position) index is the backstop.
  return newMessage({
    sessionId: session.id,
    position: 1 + 2 * session.rounds_count,
    sender: 'player',
    text,
    offerCents,
    round: session.rounds_count,
    at,
  });
}

/** A negotiation ended without a deal: the player waits before reopening this product. */
export async function coolDown(
  trx: Transaction<Database>,
  deps: HaggleDeps,
  session: SessionRow,
  at: string,
): Promise<void> {
  if (deps.cooldownMinutes === 0) return;
  const until = new Date(Date.parse(at) + deps.cooldownMinutes * 60_000).toISOString();
  await startCooldown(trx, { playerId: session.player_id, productId: session.product_id }, until);
}
