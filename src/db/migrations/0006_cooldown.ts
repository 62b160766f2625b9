import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * When a player may next open a negotiation on a product, after one ended without a deal. One
 * row per player and product, written in the transaction that ends the negotiation and locked
 * by the transaction that starts the next one, so every server process sees the same cool-down.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('haggle_cooldowns')
    .addColumn('player_id', 'text', (column) => column.notNull().references('players.id'))
    .addColumn('product_id', 'text', (column) => column.notNull().references('products.id'))
    .addColumn('until', timestamp, (column) => column.notNull())
    .addPrimaryKeyConstraint('haggle_cooldowns_pair', ['player_id', 'product_id'])
    .execute();
}
