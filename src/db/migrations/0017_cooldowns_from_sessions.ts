import type { Kysely } from 'kysely';

/**
 * A cool-down is worked out from the player's last negotiation for the product that ended without
 * a deal (its end plus HAGGLE_COOLDOWN_MINUTES as it is set), which the start reads under the
 * player's lock: the table that held each cool-down's end is no longer read or written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('haggle_cooldowns').execute();
}
