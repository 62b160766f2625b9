/**
 * `npm run bench`: the service's workloads next to raw baselines, on SQLite (synchronous=FULL)
 * and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), each on a fresh database. Bounded
 * loads on 127.0.0.1 (BENCH_SECONDS each, BENCH_CONNECTIONS connections). Prints one table.
 */
import { benchDialects, createBenchDatabase, type BenchDialect } from './support/direct.js';
import {
  addOpenSessions,
  addRankedPlayers,
  products,
  restock,
  type OpenSession,
} from './support/fixtures.js';
import {
  compare,
  formatRps,
  load,
  printTable,
  SECONDS,
  type Load,
  type LoadResult,
  machine,
  CONNECTIONS,
} from './support/load.js';
import { SELLER_SECRET, SERVICE, serviceEnv, startProgram } from './support/processes.js';

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Hands out each item once, in order; the load stops long before the queue runs dry. */
function queue<T>(items: T[]): () => T {
  let index = 0;
  return () => {
    const item = items[index++];
    if (item === undefined) throw new Error('benchmark fixtures ran out: raise their count');
    return item;
  };
}

/** Offers that the seller counters: rounds 1–8 at 42–49 % of market, round by round. */
function counterOffers(sessions: OpenSession[]) {
  const items = [];
  for (let round = 1; round <= 8; round++) {
    for (const session of sessions) {
      items.push({
        path: '/api/haggle/offer',
        headers: auth(session.player.key),
        body: JSON.stringify({
          session_id: session.id,
          offer_amount: Math.floor((session.marketCents * (41 + round)) / 100) / 100,
        }),
      });
    }
  }
  return items;
}

const accepts = (sessions: OpenSession[], path: string) =>
  sessions.map((session) => ({
    path,
    headers: auth(session.player.key),
    body: JSON.stringify({ session_id: session.id }),
  }));

interface Row {
  dialect: BenchDialect;
  workload: string;
  service: LoadResult;
  baseline?: { name: string; result: LoadResult };
}

async function benchDialect(dialect: BenchDialect): Promise<Row[]> {
  const database = await createBenchDatabase(dialect);
  const direct = database.open();
  try {
    // The first start migrates and seeds the fresh database.
    let service = await startProgram(SERVICE, serviceEnv(database.url));
    await restock(direct);
    const catalog = await products(direct);
    const ranked = await addRankedPlayers(direct, catalog, 0, 1334);
    // Enough for the fastest rates seen (offers 8 rounds a session; the raw deals serve two
    // loads): a queue that runs dry stops the benchmark.
    const perSecond = SECONDS + 2;
    const offerSessions = await addOpenSessions(direct, catalog, {
      tag: 'o',
      count: 600 * perSecond,
      countered: false,
      sellerSecret: SELLER_SECRET,
    });
    const acceptSessions = await addOpenSessions(direct, catalog, {
      tag: 'a',
      count: 3000 * perSecond,
      countered: true,
      sellerSecret: SELLER_SECRET,
    });
    const rawSessions = await addOpenSessions(direct, catalog, {
      tag: 'd',
      count: 2 * 4000 * perSecond,
      countered: true,
      sellerSecret: SELLER_SECRET,
    });
    // A fresh process on the loaded database, so every dialect starts alike.
    await service.stop();
    service = await startProgram(SERVICE, serviceEnv(database.url));
    const raw = await startProgram(['--import', 'tsx', 'bench/raw-server.ts'], {
      DATABASE_URL: database.url,
    });
    const reader = ranked[0];
    const product = catalog[0];
    if (reader === undefined || product === undefined) throw new Error('no fixtures');
    const rawDeals = queue(accepts(rawSessions, '/raw/deal'));
    const rawDeal = { url: raw.url, pid: raw.child.pid, method: 'POST' as const, next: rawDeals };

    const rows: Row[] = [];
    const pair = async (workload: string, service: Load, name: string, baseline: Load) => {
      const [ours, theirs] = await compare([
        { ...service, postgres: dialect === 'postgres' },
        { ...baseline, postgres: dialect === 'postgres' },
      ]);
      if (ours === undefined || theirs === undefined) throw new Error('no result');
      rows.push({ dialect, workload, service: ours, baseline: { name, result: theirs } });
      console.error(`${dialect} ${workload}: ${ours.rps.toFixed(0)} vs ${theirs.rps.toFixed(0)}`);
    };
    await pair(
      'GET /healthz',
      { url: service.url, pid: service.child.pid, path: '/healthz' },
      'Fastify + logger',
      {
        url: raw.url,
        pid: raw.child.pid,
        path: '/healthz',
      },
    );
    await pair(
      'GET /api/products/{id} with key',
      {
        url: service.url,
        pid: service.child.pid,
        path: `/api/products/${product.id}`,
        headers: auth(reader.key),
      },
      'raw key lookup + read',
      {
        url: raw.url,
        pid: raw.child.pid,
        path: `/raw/products/${product.id}`,
        headers: auth(reader.key),
      },
    );
    await pair(
      'POST /api/haggle/offer (a counter)',
      {
        url: service.url,
        pid: service.child.pid,
        method: 'POST',
        next: queue(counterOffers(offerSessions)),
      },
      'raw deal txn',
      rawDeal,
    );
    await pair(
      'POST /api/haggle/accept (a deal)',
      {
        url: service.url,
        pid: service.child.pid,
        method: 'POST',
        next: queue(accepts(acceptSessions, '/api/haggle/accept')),
      },
      'raw deal txn',
      rawDeal,
    );
    const board = await load({
      url: service.url,
      pid: service.child.pid,
      postgres: dialect === 'postgres',
      path: '/api/leaderboard',
    });
    rows.push({ dialect, workload: 'GET /api/leaderboard (~1,000 ranked)', service: board });
    await service.stop();
    await raw.stop();
    const unexpected = await direct.all<{ n: number }>(
      `select count(*) as n from haggle_sessions where status <> 'active' and id in (${offerSessions
        .slice(0, 500)
        .map((session) => `'${session.id}'`)
        .join(', ')})`,
    );
    if ((unexpected[0]?.n ?? 0) > 0) console.error('warning: some offers were not countered');
    return rows;
  } finally {
    await direct.close();
    await database.drop();
  }
}

const rows: Row[] = [];
for (const dialect of benchDialects()) rows.push(...(await benchDialect(dialect)));

const latency = (result: LoadResult) => `${result.p50} / ${result.p99}`;
console.log(`\n${machine()}; ${SECONDS} s per load, ${CONNECTIONS} connections\n`);
const ms = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(2));
const cpu = (result: LoadResult) => ms(result.cpuMs);
const postgresCpu = (result: LoadResult) => ms(result.postgresCpuMs);
printTable(
  [
    'db',
    'workload',
    'service req/s',
    'p50 / p99 ms',
    'CPU ms/req',
    'PG CPU ms/req',
    'baseline',
    'baseline req/s',
    'CPU ms/req',
    'PG CPU ms/req',
    'ratio',
    'failed',
  ],
  rows.map(({ dialect, workload, service, baseline }) => [
    dialect,
    workload,
    formatRps(service.rps),
    latency(service),
    cpu(service),
    postgresCpu(service),
    baseline?.name ?? '—',
    baseline === undefined ? '—' : formatRps(baseline.result.rps),
    baseline === undefined ? '—' : cpu(baseline.result),
    baseline === undefined ? '—' : postgresCpu(baseline.result),
    baseline === undefined ? '—' : (service.rps / baseline.result.rps).toFixed(2),
    service.failures + (baseline?.result.failures ?? 0),
  ]),
);
