import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationsFor } from '../../src/db/migrations/index.js';
import { runTogether } from '../../src/db/prepared.js';
import { scoreMoves } from '../../src/modules/leaderboard/leaderboard.repository.js';
import { suiteStore, testDialects } from '../helpers/databases.js';

/**
 * Migration 0012 splits each score's count into shards: the counts a database already keeps
 * must carry over, and every score's sum must stay the number of players on it.
 */
describe.each(testDialects)('per-score counts in shards (%s)', (dialect) => {
  // Migrated by the test itself, from before the shards.
  const store = suiteStore(dialect, () => Promise.resolve());

  const rows = async () =>
    (
      await sql<{ score: number; shard: number; players: number }>`select
        score_hundredths as score, shard, players from leaderboard_scores
        order by score_hundredths, shard`.execute(store().db)
    ).rows;
  const better = async (score: number) =>
    Number(
      (
        await sql<{ n: number | string }>`select coalesce(sum(players), 0) as n
          from leaderboard_scores where score_hundredths > ${score}`.execute(store().db)
      ).rows[0]?.n,
    );

  const move = (playerId: string, from: number, to: number) =>
    runTogether(store().db, scoreMoves(playerId, from, to));

  it('should keep the counts it had, then spread moves by player', async () => {
    const migrator = new Migrator({
      db: store().db,
      provider: { getMigrations: () => Promise.resolve(migrationsFor(dialect)) },
    });
    expect((await migrator.migrateTo('0011_catalog_search_keys')).error).toBeUndefined();
    await sql`insert into leaderboard_scores (score_hundredths, players)
      values (150, 2), (120, 1)`.execute(store().db);

    await migrateToLatest(store());
    expect(await rows()).toEqual([
      { score: 120, shard: 0, players: 1 },
      { score: 150, shard: 0, players: 2 },
    ]);

    // Two players whose ids fall in different shards ('f' and '7'), each moving off 150.
    await move('player-f', 150, 200);
    await move('player-7', 150, 200);
    expect(await rows()).toEqual([
      { score: 120, shard: 0, players: 1 },
      { score: 150, shard: 0, players: 2 },
      { score: 150, shard: 6, players: -1 },
      { score: 150, shard: 7, players: -1 },
      { score: 200, shard: 6, players: 1 },
      { score: 200, shard: 7, players: 1 },
    ]);
    expect(await better(120)).toBe(2);
    expect(await better(150)).toBe(2);
    expect(await better(200)).toBe(0);

    // The same player again: its own rows, not new ones.
    await move('player-f', 200, 120);
    expect(await better(100)).toBe(3);
    expect((await rows()).filter((row) => row.shard === 6)).toEqual([
      { score: 120, shard: 6, players: 1 },
      { score: 150, shard: 6, players: -1 },
      { score: 200, shard: 6, players: 0 },
    ]);
  });
});
