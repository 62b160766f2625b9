import type { Store } from '../../db/database.js';
import { decodeCreatedPosition, pageOf } from '../../http/cursor.js';
import { listTransactions } from './transactions.repository.js';
import { transactionView, type TransactionView } from './transactions.schemas.js';

/** Newest first, `limit` a page (100 unless asked for fewer), after the cursor's deal. */
export async function findTransactions(
  store: Store,
  query: {
    player_id?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
  baseUrl: string,
): Promise<{ items: TransactionView[]; nextCursor: string | null }> {
  const limit = query.limit ?? 100;
  const rows = await listTransactions(store.db, {
    playerId: query.player_id,
    before:
      query.cursor === undefined
        ? undefined
        : decodeCreatedPosition(query.cursor, query.player_id ?? null),
    limit: limit + 1,
  });
  // A cursor continues the list of one player, or of everyone: not another.
  const { items, nextCursor } = pageOf(
    rows,
    limit,
    (last) => ({ s: last.created_at, i: last.id }),
    query.player_id ?? null,
  );
  return { items: items.map((row) => transactionView(row, baseUrl)), nextCursor };
}
