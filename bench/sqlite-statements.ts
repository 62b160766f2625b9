/**
 * How much the statement cache in our SQLite driver buys: one SELECT by primary key, run through
 * better-sqlite3 directly, through Kysely's stock driver (which prepares every statement anew)
 * and through ours; the last line shows what is left once the query is also built only once.
 * Run with `node --import tsx bench/sqlite-statements.ts [iterations]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { openSqlite, withStatementCache } from '../src/db/sqlite-connection.js';
import { BazaarSqliteDialect } from '../src/db/sqlite-dialect.js';

interface Row {
  id: number;
  name: string;
}

const iterations = Number(process.argv[2] ?? 200_000);
const directory = mkdtempSync(join(tmpdir(), 'bazaar-bench-'));
const path = join(directory, 'bench.db');
const open = () => openSqlite({ path, busyTimeoutMs: 5000, synchronous: 'FULL' });

const setup = open();
setup.exec('create table items (id integer primary key, name text not null)');
const insert = setup.prepare('insert into items (id, name) values (?, ?)');
setup.transaction(() => {
  for (let id = 1; id <= 1000; id++) insert.run(id, `item ${id}`);
})();
setup.close();

async function measure(label: string, read: (id: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5000; i++) await read((i % 1000) + 1); // warm up
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await read((i % 1000) + 1);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perSecond = Math.round(iterations / seconds);
  console.log(`${label.padEnd(34)} ${perSecond.toLocaleString('en').padStart(10)} reads/s`);
  return perSecond;
}

const direct = open();
const byId = direct.prepare('select id, name from items where id = ?');
const directRate = await measure('better-sqlite3, one prepared stmt', (id) =>
  Promise.resolve(byId.get(id)),
);
direct.close();

const stock = new Kysely<{ items: Row }>({ dialect: new SqliteDialect({ database: open() }) });
const stockRate = await measure('Kysely, stock driver', (id) =>
  stock.selectFrom('items').select(['id', 'name']).where('id', '=', id).executeTakeFirst(),
);
await stock.destroy();

const cached = new Kysely<{ items: Row }>({
  dialect: new BazaarSqliteDialect({ database: withStatementCache(open()) }),
});
const cachedRate = await measure('Kysely, statement cache (ours)', (id) =>
  cached.selectFrom('items').select(['id', 'name']).where('id', '=', id).executeTakeFirst(),
);
const compiled = cached.selectFrom('items').select(['id', 'name']).where('id', '=', 0).compile();
await measure('Kysely, cache, query built once', (id) =>
  cached.executeQuery(CompiledQuery.raw(compiled.sql, [id])),
);
await cached.destroy();

console.log(
  `\nstock driver: ${Math.round((stockRate / directRate) * 100)} % of direct; ` +
    `with the cache: ${Math.round((cachedRate / directRate) * 100)} % of direct.`,
);
rmSync(directory, { recursive: true, force: true });
