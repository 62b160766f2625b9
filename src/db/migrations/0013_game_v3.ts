import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Version 3 of the game (see docs/seller.md).
 *
 * `haggle_sessions.last_move_at`: when the negotiation last moved (its start, then each offer).
 * A session whose last move is older than `HAGGLE_IDLE_MINUTES` is expired; every process
 * decides that from this stored time, so no timer is needed. Existing sessions take their start.
 *
 * `products.sale_hour`, `sales_this_hour`, `sales_hour_before`: the product's recent sales,
 * kept by each deal's own conditional update of the product row, so a product's demand is read
 * with the row itself (no count over the transactions on the product list's path).
 *
 * `transactions_player_product`: a player's earlier deals on a product, counted when a
 * negotiation opens (repeat purchases raise the floor).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema.alterTable('haggle_sessions').addColumn('last_move_at', timestamp).execute();
  await sql`update haggle_sessions set last_move_at = started_at`.execute(db);
  if (dialect === 'postgres') {
    await sql`alter table haggle_sessions alter column last_move_at set not null`.execute(db);
  }
  // The cap and the idle check read a player's active sessions by their last move.
  await sql`create index haggle_sessions_active_moves on haggle_sessions (player_id, last_move_at) where status = 'active'`.execute(
    db,
  );

  for (const column of ['sales_this_hour', 'sales_hour_before'])
    await db.schema
      .alterTable('products')
      .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  await db.schema.alterTable('products').addColumn('sale_hour', 'integer').execute();

  await db.schema
    .createIndex('transactions_player_product')
    .on('transactions')
    .columns(['player_id', 'product_id'])
    .execute();
}
