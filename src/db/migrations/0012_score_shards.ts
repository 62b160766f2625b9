import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The per-score counts of migration 0005 had one row per score, and every deal updates the row
 * of its new score in its transaction, holding that row's lock until it commits. Deals that end
 * on the same score (the seller's opening ask accepted on the same product, say) therefore
 * committed one at a time on PostgreSQL. Each score now has up to eight rows (`shard`, chosen by
 * player), whose sum is the count; the counts already kept stay in shard 0.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table leaderboard_scores
      add column shard smallint not null default 0,
      drop constraint leaderboard_scores_pkey,
      add primary key (score_hundredths, shard)`.execute(db);
    return;
  }
  // SQLite cannot change a primary key in place.
  await sql`create table leaderboard_scores_sharded (
    score_hundredths integer not null,
    shard integer not null default 0,
    players integer not null,
    primary key (score_hundredths, shard)
  )`.execute(db);
  await sql`insert into leaderboard_scores_sharded (score_hundredths, players)
    select score_hundredths, players from leaderboard_scores`.execute(db);
  await sql`drop table leaderboard_scores`.execute(db);
  await sql`alter table leaderboard_scores_sharded rename to leaderboard_scores`.execute(db);
}
