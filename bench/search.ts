/**
 * Catalog search, measured: relevance on the judged keyword queries (MRR@10, recall@10, the
 * queries that miss) and on the held-back half of the judged needs (top 3, MRR@10, empty
 * answers), then start-up and latency with synthetic catalogs of growing size. Runs on SQLite, and
 * on PostgreSQL too when TEST_DATABASE_URL names a server (it creates and drops its databases).
 *
 *   npm run bench:search                    # relevance + latency at 76 / 10,000 / 100,000
 *   npm run bench:search -- --sizes 76,10000 --relevance-only | --latency-only
 *
 * Start-up is timed in a separate process running the compiled service (the script builds it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore, type Store } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { prepareStore } from '../src/setup.js';
import { createLogger } from '../src/logger.js';
import { seedCatalogFile } from '../src/modules/catalog/catalog.seeder.js';
import { forgetSearches } from '../src/modules/catalog/catalog.cache.js';
import { createTestDatabase, testDialects, type DialectName } from '../test/helpers/databases.js';
import { startUp, syntheticCatalog } from './support/catalog.js';
import { describeQuery, failing, judge, judgedNeeds, needScores } from './search-relevance.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '76,10000,100000' },
    'relevance-only': { type: 'boolean', default: false },
    'latency-only': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);

async function openApp(url: string): Promise<{ app: App; store: Store }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' });
  const store = openStore(config);
  await prepareStore(store, config);
  const app = await buildApp({ config, store, logger: createLogger('silent') });
  await app.ready();
  return { app, store };
}

async function relevance(dialect: DialectName): Promise<void> {
  const database = await createTestDatabase(dialect);
  const { app, store } = await openApp(database.url);
  try {
    const result = await judge(
      async (path) => (await app.inject(path)).json<{ data: { items: { id: string }[] } }>().data,
    );
    const misses = failing(result);
    console.log(
      `\n${dialect}: ${result.scores.length} judged queries  MRR@10 ${result.mrr.toFixed(3)}  recall@10 ${result.recall.toFixed(3)}  (${misses.length} not perfect)`,
    );
    for (const miss of misses) {
      console.log(
        `  RR ${miss.reciprocalRank.toFixed(2)} recall ${miss.recall.toFixed(2)}  ${describeQuery(miss.query)}  → ${miss.top.slice(0, 5).join(', ') || '(nothing)'}  wanted ${miss.query.relevant.slice(0, 5).join(', ')}`,
      );
    }
    // Needs: the held-back half only (ranking is tuned on the other).
    const needs = await judge(
      async (path) => (await app.inject(path)).json<{ data: { items: { id: string }[] } }>().data,
      judgedNeeds('held'),
    );
    const { top3, empty } = needScores(needs);
    console.log(
      `${dialect}: ${needs.scores.length} held-back needs  top 3 ${(top3 * 100).toFixed(1)} %  MRR@10 ${needs.mrr.toFixed(3)}  empty ${empty}`,
    );
    for (const miss of needs.scores.filter((score) => score.reciprocalRank < 1 / 3)) {
      console.log(
        `  RR ${miss.reciprocalRank.toFixed(2)}  ${describeQuery(miss.query)}  → ${miss.top.slice(0, 3).join(', ') || '(nothing)'}`,
      );
    }
  } finally {
    await app.close();
    await store.close();
    await database.drop();
  }
}

const WORKLOADS: [string, string][] = [
  ['common word', 'q=agent'],
  ['prefix', 'q=vec'],
  ['two words', 'q=coding%20agents'],
  ['filter', 'kind=tool&category=vector-database'],
  ['no query', ''],
  ['word + filter', 'q=server&protocol=mcp'],
];

/** Words of the catalog, rare and common: the uncached rows search a different one each time. */
const WORDS = (
  'agent vector browser transcription server search python memory evaluation workflow pdf ' +
  'markdown speech crawler gateway embeddings tracing review terminal database audio api ' +
  'open source local cloud models graph retrieval testing prompts guardrails'
).split(' ');
const VARIED: [string, (i: number) => string][] = [
  ['one word, varied', (i) => `q=${WORDS[i % WORDS.length] ?? ''}`],
  [
    'two words, varied',
    (i) => `q=${WORDS[i % WORDS.length] ?? ''}%20${WORDS[(i * 7 + 3) % WORDS.length] ?? ''}`,
  ],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function timeRequests(
  app: App,
  path: string | ((i: number) => string),
  count: number,
  before?: () => void,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    before?.();
    const url = typeof path === 'string' ? path : path(i);
    const started = process.hrtime.bigint();
    const response = await app.inject(url);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  }
  return times.sort((a, b) => a - b);
}

async function latency(dialect: DialectName, size: number): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bazaar-search-bench-'));
  const file = join(directory, 'catalog.json');
  writeFileSync(file, JSON.stringify(syntheticCatalog(size)));
  const database = await createTestDatabase(dialect);
  try {
    // No time limit on statements: this store also loads the catalog, as a start's setup does
    // without one (prepareStore).
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    });
    const { ms: first } = await startUp(database.url, file);
    const { ms: again } = await startUp(database.url, file);
    console.log(
      `\n${dialect}, ${size.toLocaleString('en')} listings: first start ${(first / 1000).toFixed(1)} s, unchanged start ${(again / 1000).toFixed(2)} s`,
    );

    const store = openStore(config);
    await migrateToLatest(store);
    await seedCatalogFile(store, file);
    const app = await buildApp({ config, store, logger: createLogger('silent') });
    await app.ready();
    try {
      console.log(
        `  ${'workload (page of 20)'.padEnd(24)} ${'total'.padStart(7)}  ${'repeated p50 / p99'.padStart(19)}  ${'first time p50 / p99'.padStart(21)}`,
      );
      for (const [label, query] of WORKLOADS) {
        const path = `/api/catalog?${query}`;
        const total = (await app.inject(path)).json<{ data: { total: number } }>().data.total;
        const warm = await timeRequests(app, path, 300);
        const cold = await timeRequests(app, path, size >= 100_000 ? 10 : 30, () => {
          forgetSearches(store);
        });
        const ms = (times: number[]) =>
          `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} ms`;
        console.log(
          `  ${label.padEnd(24)} ${String(total).padStart(7)}  ${ms(warm).padStart(19)}  ${ms(cold).padStart(21)}`,
        );
      }
      // Uncached: a different query each time, with the answer cache emptied before each.
      for (const [label, query] of VARIED) {
        const cold = await timeRequests(
          app,
          (i) => `/api/catalog?${query(i)}`,
          200,
          () => {
            forgetSearches(store);
          },
        );
        const ms = `${percentile(cold, 50).toFixed(1)} / ${percentile(cold, 99).toFixed(1)} ms`;
        console.log(
          `  ${label.padEnd(24)} ${'—'.padStart(7)}  ${'—'.padStart(19)}  ${ms.padStart(21)}`,
        );
      }
    } finally {
      await app.close();
      await store.close();
    }
  } finally {
    await database.drop();
    rmSync(directory, { recursive: true, force: true });
  }
}

for (const dialect of testDialects) {
  if (!values['latency-only']) await relevance(dialect);
  if (!values['relevance-only']) for (const size of sizes) await latency(dialect, size);
}
