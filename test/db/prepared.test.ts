import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/database.js';
import { compiledOnce } from '../../src/db/prepared.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';

/** Rows of a scratch table, by a value and a constant written into the query. */
const byTag = compiledOnce((db, values: { tag: string; min: number }) =>
  db
    .selectFrom('settings')
    .select('value')
    .where('key', 'like', sql<string>`${values.tag} || '%'`)
    .where(sql<number>`length(value)`, '>=', values.min)
    .where('key', '<>', 'excluded')
    .orderBy('key'),
);

describe.each(testDialects)('queries compiled once (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = openStore({
      database: database.target,
      sqliteBusyTimeoutMs: 1000,
      sqliteSynchronous: 'NORMAL',
    });
    await store.db.schema
      .createTable('settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .execute();
    await store.db
      .insertInto('settings')
      .values([
        { key: 'a1', value: 'x' },
        { key: 'a2', value: 'xyz' },
        { key: 'b1', value: 'yyy' },
        { key: 'excluded', value: 'zzzz' },
      ])
      .execute();
  });

  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('should run with each call’s own values, in and out of transactions', async () => {
    const values = async (tag: string, min: number) =>
      (await byTag(store.db, { tag, min })).rows.map((row) => row.value);
    expect(await values('a', 1)).toEqual(['x', 'xyz']);
    expect(await values('a', 2)).toEqual(['xyz']);
    expect(await values('b', 1)).toEqual(['yyy']);
    // The constant stays in the query: 'excluded' matches the tag but is never returned.
    expect(await values('e', 1)).toEqual([]);
    const inTransaction = await store.db
      .transaction()
      .execute(async (trx) => (await byTag(trx, { tag: 'a', min: 3 })).rows);
    expect(inTransaction).toEqual([{ value: 'xyz' }]);
  });

  it.runIf(dialect === 'postgres')(
    'should be prepared by name on a PostgreSQL connection, once',
    async () => {
      const prepared = await store.db.connection().execute(async (connection) => {
        await byTag(connection, { tag: 'a', min: 1 });
        await byTag(connection, { tag: 'b', min: 1 });
        return sql<{
          name: string;
        }>`select name from pg_prepared_statements where statement like '%settings%'`.execute(
          connection,
        );
      });
      expect(prepared.rows).toHaveLength(1);
      expect(prepared.rows[0]?.name).toMatch(/^bz_[0-9a-f]{24}$/);
    },
  );
});
