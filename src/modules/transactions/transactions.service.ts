import type { Store } from '../../db/database.js';
import { listTransactions } from './transactions.repository.js';
import { transactionView, type TransactionView } from './transactions.schemas.js';

/** Newest first; without a player filter, at most 100 unless asked for fewer. */
export async function findTransactions(
  store: Store,
  filter: { player_id?: string | undefined; limit?: number | undefined },
  baseUrl: string,
): Promise<TransactionView[]> {
  const rows = await listTransactions(store.db, {
    playerId: filter.player_id,
    limit: filter.limit ?? 100,
  });
  return rows.map((row) => transactionView(row, baseUrl));
}
