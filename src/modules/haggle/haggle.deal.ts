import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { required, runTogether, unread } from '../../db/prepared.js';
import { formatCredits, hourOf } from '../../seller/index.js';
import { scoreHundredths, scoreMoves } from '../leaderboard/leaderboard.repository.js';
import { chargeForDeal } from '../players/players.repository.js';
import { takeOneFromStock } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import { insertTransaction } from '../transactions/transactions.repository.js';
import type { TransactionRow } from '../transactions/transactions.tables.js';
import { insufficientCredits, outOfStock, sessionNotActive } from './haggle.errors.js';
import {
  messagesInsert,
  moveSession,
  playerKeyUnchanged,
  type LockedSession,
} from './haggle.repository.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

/** The messages that record a turn: an offer and its answer, or a player's note. */
export type Turn = [MessageRow] | [MessageRow, MessageRow];

export interface Deal {
  session: SessionRow;
  transaction: TransactionRow;
  /** The product as the deal left it (one unit fewer, one more recent sale). */
  product: ProductRow;
  /** The player's balance as the deal's own charge left it (not a value read earlier). */
  creditsCents: number;
}

// Only a concurrent request on the same session can have moved it since we read it.
const movedMeanwhile = () => sessionNotActive('already being changed by another request');

/*
 * A turn is decided on what `readOwnSession` read and written here in one statement. Inside a
 * transaction (which holds the session and the player locked) a write that finds its row changed
 * throws, and the transaction undoes the others. Outside one (PostgreSQL only) the statement is
 * the transaction: each write is marked `required`, so if any finds its row changed, or the
 * player's key was replaced since the read, the statement fails whole (`isChangedMeanwhile`) and
 * the caller decides the turn again under locks.
 */

/**
 * Records a turn and moves the session to `next` from the state it was read in, or fails if a
 * concurrent request moved it.
 */
export async function recordTurn(
  db: Db,
  { session, keyHash }: LockedSession,
  next: SessionRow,
  turn: Turn,
): Promise<SessionRow> {
  const move = required(moveSession(session, next));
  const [, moved] = db.isTransaction
    ? await runTogether(db, [unread(messagesInsert(turn)), move])
    : await runTogether(db, [
        unread(messagesInsert(turn)),
        move,
        unread(required(playerKeyUnchanged({ playerId: session.player_id, keyHash }))),
      ]);
  if (moved.length !== 1) throw movedMeanwhile();
  return next;
}

/**
 * Makes the deal at `priceCents` and records the turn that made it: closes the session, takes
 * one unit of stock (counting the sale in the product's demand), charges the player, records the
 * transaction and moves the player's score in the per-score counts, all sent at once. Any
 * conditional update that finds the state changed under it throws, and the database transaction
 * undoes the others. `keyHash` and `totals` are the player's as `readOwnSession` read them: the
 * charge is made only while they stand.
 */
export async function closeDeal(
  db: Db,
  deal: {
    session: SessionRow;
    product: ProductRow;
    keyHash: string;
    totals: { marketCents: number; spentCents: number };
    priceCents: number;
    at: string;
    turn: Turn;
    changes?: Partial<SessionRow>;
  },
): Promise<Deal> {
  const { session, product, totals, priceCents, at } = deal;
  const closed: SessionRow = {
    ...session,
    ...deal.changes,
    status: 'accepted',
    final_price_cents: priceCents,
    ended_at: at,
  };
  const charge = {
    playerId: session.player_id,
    keyHash: deal.keyHash,
    fromMarketCents: totals.marketCents,
    fromSpentCents: totals.spentCents,
    priceCents,
    marketCents: product.market_cents,
    now: at,
  };
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
  // Never null: a deal's price is above zero, so the player has spent something.
  const score =
    scoreHundredths(totals.marketCents + product.market_cents, totals.spentCents + priceCents) ?? 0;
  const [, moved, [sold], [charged]] = await runTogether(db, [
    unread(messagesInsert(deal.turn)),
    required(moveSession(session, closed)),
    required(takeOneFromStock(product.id, at, hourOf(at))),
    required(chargeForDeal(charge)),
    unread(insertTransaction(transaction)),
    ...scoreMoves(
      session.player_id,
      scoreHundredths(totals.marketCents, totals.spentCents),
      score,
    ).map(unread),
  ]);
  // In this order: a session another request moved explains the rest.
  if (moved.length !== 1) throw movedMeanwhile();
  if (sold === undefined) throw outOfStock();
  if (charged === undefined) {
    throw insufficientCredits(
      `You no longer have the ${formatCredits(priceCents)} credits this deal needs (another deal spent them meanwhile). Nothing was changed.`,
    );
  }
  // The charge worked the score out from the totals it found: the ones read under the lock.
  if (Number(charged.score_hundredths) !== score) {
    throw new Error('The player changed while locked: the per-score counts would be wrong.');
  }
  return {
    session: closed,
    transaction,
    product: { ...product, ...sold, updated_at: at },
    creditsCents: charged.credits_cents,
  };
}
