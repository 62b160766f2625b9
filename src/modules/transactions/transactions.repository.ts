import { sql } from 'kysely';
import { compiledOnce, type Step } from '../../db/prepared.js';
import type { Db } from '../../db/schema.js';
import type { TransactionRow } from './transactions.tables.js';

const insert = compiledOnce((db, row: TransactionRow) =>
  db
    .insertInto('transactions')
    .values({
      id: row.id,
      player_id: row.player_id,
      product_id: row.product_id,
      session_id: row.session_id,
      quantity: row.quantity,
      market_cents: row.market_cents,
      final_price_cents: row.final_price_cents,
      status: row.status,
      created_at: row.created_at,
    })
    .returning('id'),
);

export function insertTransaction(transaction: TransactionRow): Step<{ id: string }> {
  return insert.with(transaction);
}

/** Where a page starts: after this deal in the order newest first (created_at, then id). */
export interface DealPosition {
  createdAt: string;
  id: string;
}

/** Deals with their product's name, description and category. */
const withProduct = (db: Db) =>
  db
    .selectFrom('transactions')
    .innerJoin('products', 'products.id', 'transactions.product_id')
    .selectAll('transactions')
    .select(['products.name', 'products.description', 'products.category']);

export function listTransactions(
  db: Db,
  filter: { playerId?: string | undefined; before?: DealPosition | undefined; limit: number },
) {
  const { before } = filter;
  return withProduct(db)
    .$if(filter.playerId !== undefined, (query) =>
      query.where('transactions.player_id', '=', filter.playerId ?? ''),
    )
    .$if(before !== undefined, (query) =>
      query.where(
        sql<boolean>`(transactions.created_at, transactions.id) < (${before?.createdAt}, ${before?.id})`,
      ),
    )
    .orderBy('transactions.created_at', 'desc')
    .orderBy('transactions.id', 'desc')
    .limit(filter.limit)
    .execute();
}

export type TransactionWithProduct = Awaited<ReturnType<typeof listTransactions>>[number];

/** The deal that closed a session, if one did. */
export function findSessionDeal(db: Db, sessionId: string) {
  return withProduct(db).where('transactions.session_id', '=', sessionId).executeTakeFirst();
}
