import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * What ranking needs, kept up to date by every deal instead of recomputed on every read: each
 * player's score, deal count and first deal (the leaderboard's order, served by one index), and
 * how many players hold each score (a player's rank is 1 + the players on higher scores, a sum
 * over the few distinct scores rather than a count over every player).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';

  // Null while the player has bought nothing: such players are not ranked.
  await db.schema.alterTable('players').addColumn('score_hundredths', 'integer').execute();
  await db.schema
    .alterTable('players')
    .addColumn('deals_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('players').addColumn('first_deal_at', timestamp).execute();

  // Existing games: the same values the deal transaction would have written.
  await sql`update players set
    deals_count = (select count(*) from transactions t where t.player_id = players.id),
    first_deal_at = (select min(t.created_at) from transactions t where t.player_id = players.id),
    score_hundredths = case when total_spent_cents > 0
      then (cast(total_market_cents as bigint) * 200 + total_spent_cents) / (cast(total_spent_cents as bigint) * 2)
    end`.execute(db);

  await sql`create index players_ranking on players
    (score_hundredths desc, total_market_cents desc, first_deal_at, id)
    where score_hundredths is not null`.execute(db);

  await db.schema
    .createTable('leaderboard_scores')
    .addColumn('score_hundredths', 'integer', (column) => column.primaryKey())
    .addColumn('players', 'integer', (column) => column.notNull())
    .execute();
  await sql`insert into leaderboard_scores (score_hundredths, players)
    select score_hundredths, count(*) from players
    where score_hundredths is not null group by score_hundredths`.execute(db);
}
