import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The negotiation game. Money is integer cents; the CHECK constraints and unique indexes are
 * the backstop behind the services' conditional updates: whatever a bug or a race does, credits
 * and stock never go negative, a session never yields two transactions, and a player never has
 * two active sessions for one product.
 *
 * Every `*_cents` column is `integer`: 4 bytes on PostgreSQL, so at most 2,147,483,647 cents
 * (21,474,836.47 credits). That is enough: a player starts with 100.00 credits and credits never
 * grow, product prices are around 100 credits or less, and inputs are capped far below the limit
 * (`parseCents` in `src/http/money.ts`).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';

  await db.schema
    .createTable('players')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('username', 'text', (column) => column.notNull())
    .addColumn('username_key', 'text', (column) => column.notNull().unique())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('email_key', 'text', (column) => column.notNull().unique())
    .addColumn('api_key_hash', 'text', (column) => column.notNull().unique())
    // Money: integer cents, at most 2,147,483,647 on PostgreSQL (see above).
    .addColumn('credits_cents', 'integer', (column) =>
      column.notNull().check(sql`credits_cents >= 0`),
    )
    .addColumn('total_market_cents', 'integer', (column) =>
      column
        .notNull()
        .defaultTo(0)
        .check(sql`total_market_cents >= 0`),
    )
    .addColumn('total_spent_cents', 'integer', (column) =>
      column
        .notNull()
        .defaultTo(0)
        .check(sql`total_spent_cents >= 0`),
    )
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('category', 'text', (column) =>
      column
        .notNull()
        .check(
          sql`category in ('Electronics', 'Fashion', 'Food & Drink', 'Books', 'Home & Kitchen')`,
        ),
    )
    // Money: integer cents, at most 2,147,483,647 on PostgreSQL (see above).
    .addColumn('market_cents', 'integer', (column) => column.notNull().check(sql`market_cents > 0`))
    .addColumn('stock_quantity', 'integer', (column) =>
      column.notNull().check(sql`stock_quantity >= 0`),
    )
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('haggle_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('player_id', 'text', (column) => column.notNull().references('players.id'))
    .addColumn('product_id', 'text', (column) => column.notNull().references('products.id'))
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .check(sql`status in ('active', 'accepted', 'rejected', 'abandoned', 'expired')`),
    )
    // Money: integer cents, at most 2,147,483,647 on PostgreSQL (see above).
    .addColumn('current_offer_cents', 'integer')
    .addColumn('counter_offer_cents', 'integer')
    .addColumn('rounds_count', 'integer', (column) =>
      column
        .notNull()
        .defaultTo(0)
        .check(sql`rounds_count between 0 and max_rounds`),
    )
    .addColumn('max_rounds', 'integer', (column) => column.notNull())
    .addColumn('final_price_cents', 'integer')
    // The seller's private terms, fixed when the session starts (never shown to players).
    .addColumn('floor_cents', 'integer', (column) => column.notNull().check(sql`floor_cents > 0`))
    .addColumn('opening_ask_cents', 'integer', (column) => column.notNull())
    .addColumn('started_at', timestamp, (column) => column.notNull())
    .addColumn('ended_at', timestamp)
    .addCheckConstraint(
      'haggle_sessions_final_price',
      sql`(status = 'accepted') = (final_price_cents is not null)`,
    )
    .addCheckConstraint(
      'haggle_sessions_floor',
      sql`final_price_cents is null or final_price_cents >= floor_cents`,
    )
    .addCheckConstraint('haggle_sessions_ended', sql`(status = 'active') = (ended_at is null)`)
    .execute();

  // One active session per player and product, enforced by the database so concurrent starts
  // cannot both create one.
  await sql`create unique index haggle_sessions_one_active on haggle_sessions (player_id, product_id) where status = 'active'`.execute(
    db,
  );
  await db.schema
    .createIndex('haggle_sessions_player')
    .on('haggle_sessions')
    .columns(['player_id', 'status'])
    .execute();

  await db.schema
    .createTable('haggle_messages')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('session_id', 'text', (column) => column.notNull().references('haggle_sessions.id'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('sender', 'text', (column) =>
      column.notNull().check(sql`sender in ('seller', 'player')`),
    )
    .addColumn('message', 'text', (column) => column.notNull())
    // Money: integer cents, at most 2,147,483,647 on PostgreSQL (see above).
    .addColumn('offer_cents', 'integer')
    .addColumn('round', 'integer', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addUniqueConstraint('haggle_messages_order', ['session_id', 'position'])
    .execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('player_id', 'text', (column) => column.notNull().references('players.id'))
    .addColumn('product_id', 'text', (column) => column.notNull().references('products.id'))
    .addColumn('session_id', 'text', (column) =>
      column.notNull().unique().references('haggle_sessions.id'),
    )
    .addColumn('quantity', 'integer', (column) => column.notNull().check(sql`quantity = 1`))
    // Money: integer cents, at most 2,147,483,647 on PostgreSQL (see above).
    .addColumn('market_cents', 'integer', (column) => column.notNull().check(sql`market_cents > 0`))
    .addColumn('final_price_cents', 'integer', (column) =>
      column.notNull().check(sql`final_price_cents > 0`),
    )
    .addColumn('status', 'text', (column) => column.notNull().check(sql`status = 'completed'`))
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_player_created')
    .on('transactions')
    .columns(['player_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('transactions_created')
    .on('transactions')
    .column('created_at')
    .execute();
}
