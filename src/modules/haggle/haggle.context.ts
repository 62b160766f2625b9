import { randomUUID } from 'node:crypto';
import type { Store } from '../../db/database.js';
import type { SellerContext } from '../../seller/index.js';
import { productDemand } from '../products/products.schemas.js';
import type { ProductRow } from '../products/products.tables.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

/**
 * What every haggle use case shares: its dependencies, the clock, the seller's view of a
 * session, where a message goes, and the rules of time (idle expiry, the cool-down).
 */

/** What the haggle use cases need besides the request. */
export interface HaggleDeps {
  store: Store;
  sellerSecret: string;
  /** Minutes a player waits to reopen a product after a negotiation on it ended without a deal. */
  cooldownMinutes: number;
  /** Minutes without an offer after which an active negotiation is expired. */
  idleMinutes: number;
  /** Active negotiations one player may hold at once. */
  maxActive: number;
}

/** The rules of time a player's view of a session shows: its idle deadline and its cool-down. */
export type SessionClock = Pick<HaggleDeps, 'idleMinutes' | 'cooldownMinutes'>;

export const now = (): string => new Date().toISOString();

export const addMinutes = (at: string, minutes: number): string =>
  new Date(Date.parse(at) + minutes * 60_000).toISOString();

/** When an active session expires unless an offer comes first. */
export const idleDeadline = (session: SessionRow, idleMinutes: number): string =>
  addMinutes(session.last_move_at, idleMinutes);

/** The last move at or before which an active session is idle at `at`. */
export const idleCutoff = (at: string, idleMinutes: number): string => addMinutes(at, -idleMinutes);

/** Whether an active session has gone without an offer for the idle limit at `at`. */
export const isIdle = (session: SessionRow, at: string, idleMinutes: number): boolean =>
  session.status === 'active' && idleDeadline(session, idleMinutes) <= at;

/**
 * The session as it stands at `at`: an active session past its idle limit is expired (ended at
 * its deadline), whether or not that has been written yet. Every reader shows this.
 */
export function asOf(session: SessionRow, at: string, idleMinutes: number): SessionRow {
  if (!isIdle(session, at, idleMinutes)) return session;
  return { ...session, status: 'expired', ended_at: idleDeadline(session, idleMinutes) };
}

/**
 * The seller's view: the floor fixed at the start, its temperament from player and product, and
 * the public facts its words may state (description, demand, stock).
 */
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
    productDescription: product.description,
    demand: productDemand(product, now()),
    stock: product.stock_quantity,
    marketCents: product.market_cents,
    floorCents: session.floor_cents,
    openingAskCents: session.opening_ask_cents,
  };
}

/**
 * The one rule for where a message goes: the greeting is 0, each round adds an offer and its
 * answer, and a note that ends the session follows the last round. The unique (session,
 * position) index is the backstop.
 */
export const positionAfter = (session: SessionRow): number => 1 + 2 * session.rounds_count;

/** A stored message row; the words themselves come from `src/seller/`. */
export function newMessage(fields: {
  sessionId: string;
  position: number;
  sender: MessageRow['sender'];
  text: string;
  offerCents: number | null;
  round: number;
  at: string;
}): MessageRow {
  return {
    id: randomUUID(),
    session_id: fields.sessionId,
    position: fields.position,
    sender: fields.sender,
    message: fields.text,
    offer_cents: fields.offerCents,
    round: fields.round,
    created_at: fields.at,
  };
}

/** What the player did outside an offer (accepting, walking away), after the last message. */
export const playerNote = (
  session: SessionRow,
  text: string,
  offerCents: number | null,
  at: string,
): MessageRow =>
  newMessage({
    sessionId: session.id,
    position: positionAfter(session),
    sender: 'player',
    text,
    offerCents,
    round: session.rounds_count,
    at,
  });

/**
 * When the player may reopen the product of a negotiation that ended without a deal (rejected,
 * abandoned, expired): its end plus the cool-down. Null for an active or accepted one, and when
 * the cool-down is off.
 */
export function cooldownEnd(
  session: Pick<SessionRow, 'status' | 'ended_at'>,
  cooldownMinutes: number,
): string | null {
  if (cooldownMinutes === 0 || session.ended_at === null || session.status === 'accepted') {
    return null;
  }
  return addMinutes(session.ended_at, cooldownMinutes);
}
