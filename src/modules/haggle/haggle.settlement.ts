import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { chargeForDeal } from '../players/players.repository.js';
import { takeOneFromStock } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import { insertTransaction } from '../transactions/transactions.repository.js';
import type { TransactionRow } from '../transactions/transactions.tables.js';
import { insufficientCredits, outOfStock, sessionNotActive } from './haggle.errors.js';
import { advanceSession } from './haggle.repository.js';
import type { SessionRow } from './haggle.tables.js';

export interface Deal {
  session: SessionRow;
  transaction: TransactionRow;
  /** The product as the deal left it (one unit fewer). */
  product: ProductRow;
  /** The player's balance as the deal's own charge left it (not a value read earlier). */
  creditsCents: number;
}

/**
 * Makes the deal at `priceCents`: closes the session, takes one unit of stock, charges the
 * player and records the transaction. Each step is a conditional update; any that finds the
 * state changed under it throws, and the database transaction undoes the others.
 */
export async function closeDeal(
  trx: Transaction<Database>,
  deal: {
    session: SessionRow;
    product: ProductRow;
    priceCents: number;
    at: string;
    changes?: Partial<SessionRow>;
  },
): Promise<Deal> {
  const { session, product, priceCents, at } = deal;
  const closed = await advance(trx, session, {
    ...deal.changes,
    status: 'accepted',
    final_price_cents: priceCents,
    ended_at: at,
  });
  const sold = await takeOneFromStock(trx, product.id, at);
  if (sold === undefined) throw outOfStock();
  const creditsCents = await chargeForDeal(trx, {
    playerId: session.player_id,
    priceCents,
    marketCents: product.market_cents,
    now: at,
  });
  if (creditsCents === undefined) throw insufficientCredits();
  const transaction: TransactionRow = {
    id: randomUUID(),
    player_id: session.player_id,
    product_id: product.id,
    session_id: session.id,
    quantity: 1,
    market_cents: product.market_cents,
    final_price_cents: priceCents,
    status: 'completed',
    created_at: at,
  };
  await insertTransaction(trx, transaction);
  return { session: closed, transaction, product: sold, creditsCents };
}

/** Moves the session on from the state it was read in, or fails if a concurrent request moved it. */
export async function advance(
  trx: Transaction<Database>,
  session: SessionRow,
  changes: Partial<SessionRow>,
): Promise<SessionRow> {
  const next = { ...session, ...changes };
  const moved = await advanceSession(
    trx,
    { id: session.id, roundsCount: session.rounds_count },
    next,
  );
  // Only a concurrent request on the same session can have moved it since we read it.
  if (!moved) throw sessionNotActive('already being changed by another request');
  return next;
}
