/**
 * `npm run bench:cores`: one server process against two (`npm run start:cluster` with
 * WEB_CONCURRENCY=1 and 2) on one SQLite file and on one PostgreSQL database: an authenticated
 * product read and an accepted deal, each on a fresh database.
 */
import { benchDialects, createBenchDatabase, type BenchDialect } from './support/direct.js';
import { addOpenSessions, addRankedPlayers, products, restock } from './support/fixtures.js';
import {
  formatRps,
  load,
  printTable,
  SECONDS,
  type LoadResult,
  machine,
  CONNECTIONS,
} from './support/load.js';
import { SELLER_SECRET, SERVICE, serviceEnv, startProgram } from './support/processes.js';

interface Row {
  dialect: BenchDialect;
  processes: number;
  read: LoadResult;
  deal: LoadResult;
}

async function cores(dialect: BenchDialect): Promise<Row[]> {
  const database = await createBenchDatabase(dialect);
  const direct = database.open();
  try {
    const first = await startProgram(SERVICE, serviceEnv(database.url));
    await first.stop();
    await restock(direct);
    const catalog = await products(direct);
    const [reader] = await addRankedPlayers(direct, catalog, 0, 4);
    const product = catalog[0];
    if (reader === undefined || product === undefined) throw new Error('no fixtures');
    const sessions = await addOpenSessions(direct, catalog, {
      tag: 'c',
      count: 3000 * (SECONDS + 2),
      countered: true,
      sellerSecret: SELLER_SECRET,
    });
    let next = 0;
    const rows: Row[] = [];
    for (const processes of [1, 2]) {
      const service = await startProgram(['--enable-source-maps', 'dist/cluster.js'], {
        ...serviceEnv(database.url),
        WEB_CONCURRENCY: String(processes),
      });
      const read = await load({
        url: service.url,
        path: `/api/products/${product.id}`,
        headers: { authorization: `Bearer ${reader.key}` },
      });
      const deal = await load({
        url: service.url,
        method: 'POST',
        next: () => {
          const session = sessions[next++];
          if (session === undefined) throw new Error('fixtures ran out');
          return {
            path: '/api/haggle/accept',
            headers: { authorization: `Bearer ${session.player.key}` },
            body: JSON.stringify({ session_id: session.id }),
          };
        },
      });
      await service.stop();
      rows.push({ dialect, processes, read, deal });
      console.error(
        `${dialect} x${processes}: read ${read.rps.toFixed(0)}, deal ${deal.rps.toFixed(0)}`,
      );
    }
    return rows;
  } finally {
    await direct.close();
    await database.drop();
  }
}

const rows: Row[] = [];
for (const dialect of benchDialects()) rows.push(...(await cores(dialect)));
console.log(`\n${machine()}; ${SECONDS} s per load, ${CONNECTIONS} connections\n`);
printTable(
  [
    'db',
    'processes',
    'product read req/s',
    'p50 / p99 ms',
    'accept req/s',
    'p50 / p99 ms',
    'failed',
  ],
  rows.map(({ dialect, processes, read, deal }) => [
    dialect,
    processes,
    formatRps(read.rps),
    `${read.p50} / ${read.p99}`,
    formatRps(deal.rps),
    `${deal.p50} / ${deal.p99}`,
    read.failures + deal.failures,
  ]),
);
