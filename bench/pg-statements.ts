/**
 * What `NamedQuery` (src/db/pg-named-query.ts) saves the client: one named statement of 1, 11 and
 * 25 columns run one at a time on one connection, through pg's own query object and through
 * ours, in turns, with the process's CPU time per query. Needs BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; runs in a fresh database, dropped at the end.
 * Run with `node --import tsx bench/pg-statements.ts [queries per turn]`.
 */
import pg from 'pg';
import '../src/db/database.js';
import { runNamed } from '../src/db/pg-named-query.js';
import { createBenchDatabase } from './support/direct.js';

const queries = Number(process.argv[2] ?? 20_000);
const database = await createBenchDatabase('postgres');
const pool = new pg.Pool({ connectionString: database.url, max: 1 });
const client = await pool.connect();

/** A statement of `count` columns, integers and texts in turn, as the service's rows mix them. */
const statementOf = (count: number) =>
  `select ${Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `${i}::int + $1::int as column_${i}`
      : `'text of column ${i}'::text as column_${i}`,
  ).join(', ')}`;

const ways = {
  "pg's query object": (name: string, text: string, i: number) =>
    client.query({ name, text, values: [i] }),
  NamedQuery: (name: string, text: string, i: number) => runNamed(client, name, text, [i]),
};

/** Client CPU µs per query: the median of `turns` turns. */
async function measure(run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2000; i++) await run(i); // warm up
  const start = process.cpuUsage();
  for (let i = 0; i < queries; i++) await run(i);
  const { user, system } = process.cpuUsage(start);
  return (user + system) / queries;
}

try {
  console.log(
    `${queries} queries per turn, CPU µs of this process per query (median of 3 turns in alternating order)`,
  );
  console.log('| columns | ' + Object.keys(ways).join(' | ') + ' |');
  console.log(
    '|---|' +
      Object.keys(ways)
        .map(() => '---|')
        .join(''),
  );
  for (const columns of [1, 11, 25]) {
    const text = statementOf(columns);
    const times = new Map<string, number[]>();
    for (let turn = 0; turn < 3; turn++) {
      // Each turn in the other order, so neither way always runs first.
      const order = turn % 2 === 0 ? Object.entries(ways) : Object.entries(ways).reverse();
      for (const [way, run] of order) {
        // Each way its own name: pg refuses one name for two texts on a connection, not here.
        const name = `bench_${columns}_${way === 'NamedQuery' ? 'named' : 'pg'}`;
        const perQuery = await measure((i) => run(name, text, i));
        times.set(way, [...(times.get(way) ?? []), perQuery]);
      }
    }
    const medians = [...times.values()].map((values) => values.sort((a, b) => a - b)[1] ?? NaN);
    console.log(`| ${columns} | ${medians.map((value) => value.toFixed(1)).join(' | ')} |`);
  }
} finally {
  client.release();
  await pool.end();
  await database.drop();
}
