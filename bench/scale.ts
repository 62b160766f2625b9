/**
 * `npm run bench:scale`: leaderboard and player-stats latency as the players grow to 1,000,
 * 10,000 and 100,000 (BENCH_SCALE_SIZES), on SQLite and PostgreSQL. Players are inserted as the
 * game would have left them (credits + spent = 100.00, a session and a transaction per deal,
 * ranking columns and per-score counts consistent); the compiled service runs throughout.
 */
import { benchDialects, createBenchDatabase, type BenchDialect } from './support/direct.js';
import { addRankedPlayers, products, random, type BenchPlayer } from './support/fixtures.js';
import { formatRps, load, printTable, type LoadResult, machine } from './support/load.js';
import { SERVICE, serviceEnv, startProgram } from './support/processes.js';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
const CONNECTIONS = 4;

interface Row {
  dialect: BenchDialect;
  players: number;
  leaderboard: LoadResult;
  stats: LoadResult;
}

async function scale(dialect: BenchDialect): Promise<Row[]> {
  const database = await createBenchDatabase(dialect);
  const direct = database.open();
  const service = await startProgram(SERVICE, serviceEnv(database.url));
  try {
    const catalog = await products(direct);
    const players: BenchPlayer[] = [];
    const rows: Row[] = [];
    for (const size of SIZES) {
      const started = performance.now();
      players.push(
        ...(await addRankedPlayers(direct, catalog, players.length, size - players.length)),
      );
      await direct.run('analyze');
      console.error(
        `${dialect}: ${size} players in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const reader = players[0];
      if (reader === undefined) throw new Error('no players');
      const auth = { authorization: `Bearer ${reader.key}` };
      const leaderboard = await load({
        url: service.url,
        path: '/api/leaderboard',
        headers: auth,
        connections: CONNECTIONS,
      });
      const pick = random(size);
      const stats = await load({
        url: service.url,
        connections: CONNECTIONS,
        next: () => {
          const player = players[Math.floor(pick() * players.length)] as BenchPlayer;
          return { path: `/api/players/${player.id}/stats`, headers: auth };
        },
      });
      rows.push({ dialect, players: size, leaderboard, stats });
      console.error(
        `${dialect} ${size}: leaderboard p99 ${leaderboard.p99} ms, stats p99 ${stats.p99} ms`,
      );
    }
    return rows;
  } finally {
    await service.stop();
    await direct.close();
    await database.drop();
  }
}

const rows: Row[] = [];
for (const dialect of benchDialects()) rows.push(...(await scale(dialect)));
console.log(`\n${machine()}; ${CONNECTIONS} connections\n`);
printTable(
  ['db', 'players', 'leaderboard req/s', 'p50 / p99 ms', 'stats req/s', 'p50 / p99 ms', 'failed'],
  rows.map(({ dialect, players, leaderboard, stats }) => [
    dialect,
    players.toLocaleString('en'),
    formatRps(leaderboard.rps),
    `${leaderboard.p50} / ${leaderboard.p99}`,
    formatRps(stats.rps),
    `${stats.p50} / ${stats.p99}`,
    leaderboard.failures + stats.failures,
  ]),
);
