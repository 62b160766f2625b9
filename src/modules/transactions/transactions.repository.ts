import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TransactionRow } from './transactions.tables.js';

type Db = Kysely<Database>;

export async function insertTransaction(db: Db, transaction: TransactionRow): Promise<void> {
  await db.insertInto('transactions').values(transaction).execute();
}

export function listTransactions(db: Db, filter: { playerId?: string | undefined; limit: number }) {
  return db
    .selectFrom('transactions')
    .innerJoin('products', 'products.id', 'transactions.product_id')
    .selectAll('transactions')
    .select(['products.name', 'products.description', 'products.category'])
    .$if(filter.playerId !== undefined, (query) =>
      query.where('transactions.player_id', '=', filter.playerId ?? ''),
    )
    .orderBy('transactions.created_at', 'desc')
    .orderBy('transactions.id', 'desc')
    .limit(filter.limit)
    .execute();
}

export type TransactionWithProduct = Awaited<ReturnType<typeof listTransactions>>[number];
