import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { isChangedMeanwhile } from '../../src/db/errors.js';
import * as changedMeanwhile from '../../src/db/migrations/0018_changed_meanwhile.js';
import {
  compiledOnce,
  multiRowInsert,
  required,
  runTogether,
  unread,
} from '../../src/db/prepared.js';
import {
  createTestDatabase,
  openTestStore,
  testDialects,
  type TestDatabase,
} from '../helpers/databases.js';

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

/** Appends to a setting's value if it is still `from`: its new value, or no row. */
const append = compiledOnce((db, values: { key: string; from: string; suffix: string }) =>
  db
    .updateTable('settings')
    .set({ value: sql<string>`value || ${values.suffix}` })
    .where('key', '=', values.key)
    .where('value', '=', values.from)
    .returning('value'),
);

const addSetting = compiledOnce((db, values: { key: string; value: string }) =>
  db.insertInto('settings').values({ key: values.key, value: values.value }).returning('key'),
);

const addSettings = multiRowInsert<{ key: string; value: string }, { key: string }>(
  ['key', 'value'],
  3,
  (db, rows) => db.insertInto('settings').values(rows).returning('key'),
);

describe('a query compiled once, built wrongly', () => {
  it('should refuse a value that decides the query instead of filling a parameter', async () => {
    const byFlag = compiledOnce((db, values: { key: string; newestFirst: boolean }) =>
      db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', values.key)
        .orderBy('key', values.newestFirst ? 'desc' : 'asc'),
    );
    const database = await createTestDatabase('sqlite');
    const store = openTestStore(database);
    try {
      expect(() => byFlag(store.db, { key: 'a', newestFirst: false })).toThrow(
        /newestFirst must be used as query values only/,
      );
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe.each(testDialects)('queries compiled once (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = openTestStore(database);
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

  it('should run writes together and give each one its own rows', async () => {
    const [first, missed, added] = await runTogether(store.db, [
      append.with({ key: 'b1', from: 'yyy', suffix: '!' }),
      append.with({ key: 'a1', from: 'not its value', suffix: '?' }),
      addSetting.with({ key: 'c1', value: 'new' }),
    ]);
    expect(first).toEqual([{ value: 'yyy!' }]);
    expect(missed).toEqual([]);
    expect(added).toEqual([{ key: 'c1' }]);
    // Again with other values: the same statement, each value in its place.
    const [again] = await runTogether(store.db, [
      append.with({ key: 'b1', from: 'yyy!', suffix: '#' }),
      addSetting.with({ key: 'c2', value: 'newer' }),
    ]);
    expect(again).toEqual([{ value: 'yyy!#' }]);
    const rows = await store.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['a1', 'b1', 'c1', 'c2'])
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'a1', value: 'x' },
      { key: 'b1', value: 'yyy!#' },
      { key: 'c1', value: 'new' },
      { key: 'c2', value: 'newer' },
    ]);
  });

  it('should run a write whose rows are not read, and give none for it', async () => {
    const [added, appended] = await runTogether(store.db, [
      unread(addSetting.with({ key: 'u1', value: 'unread' })),
      append.with({ key: 'u1', from: 'never', suffix: '?' }),
    ]);
    expect([added, appended]).toEqual([[], []]);
    // Nothing read back at all: the statement still runs every write.
    const nothing = await runTogether(store.db, [
      unread(append.with({ key: 'u1', from: 'unread', suffix: '!' })),
      unread(addSetting.with({ key: 'u2', value: 'also' })),
    ]);
    expect(nothing).toEqual([[], []]);
    const rows = await store.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['u1', 'u2'])
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'u1', value: 'unread!' },
      { key: 'u2', value: 'also' },
    ]);
  });

  it('should leave nothing of writes run together when their transaction fails', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        const [, appended] = await runTogether(trx, [
          addSetting.with({ key: 'd1', value: 'kept?' }),
          append.with({ key: 'a2', from: 'xyz', suffix: '+' }),
        ]);
        if (appended.length === 1) throw new Error('undo both');
      }),
    ).rejects.toThrow('undo both');
    const rows = await store.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['a2', 'd1'])
      .execute();
    expect(rows).toEqual([{ key: 'a2', value: 'xyz' }]);
  });

  it.runIf(dialect === 'postgres')(
    'should write nothing outside a transaction when a required write finds no row',
    async () => {
      await changedMeanwhile.up(store.db as unknown as Kysely<unknown>, 'postgres');
      await store.db.insertInto('settings').values({ key: 'g1', value: 'v' }).execute();
      const failure = await runTogether(store.db, [
        addSetting.with({ key: 'g2', value: 'kept?' }),
        append.with({ key: 'g1', from: 'not its value', suffix: '?' }),
        required(append.with({ key: 'g1', from: 'not its value either', suffix: '!' })),
      ]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as { code?: string } | undefined)?.code).toBe('BZ409');
      expect(isChangedMeanwhile(failure)).toBe(true);
      // With its required write's row as read, the same statement writes everything.
      const [added, missed, appended] = await runTogether(store.db, [
        addSetting.with({ key: 'g3', value: 'kept' }),
        append.with({ key: 'g1', from: 'not its value', suffix: '?' }),
        required(append.with({ key: 'g1', from: 'v', suffix: '!' })),
      ]);
      expect([added, missed, appended]).toEqual([[{ key: 'g3' }], [], [{ value: 'v!' }]]);
      const rows = await store.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'like', 'g%')
        .orderBy('key')
        .execute();
      expect(rows).toEqual([
        { key: 'g1', value: 'v!' },
        { key: 'g3', value: 'kept' },
      ]);
    },
  );

  it.runIf(dialect === 'postgres')('should send writes run together as one statement', async () => {
    const prepared = await store.db.connection().execute(async (connection) => {
      await runTogether(connection, [
        append.with({ key: 'zz', from: '', suffix: '' }),
        addSetting.with({ key: 'e1', value: 'one trip' }),
      ]);
      return sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        connection,
      );
    });
    // The writes were never sent on their own, only inside the statement that runs them together.
    const writes = prepared.rows
      .map((row) => row.statement)
      .filter((statement) => /update "settings"|insert into "settings"/.test(statement));
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes) {
      expect(statement).toMatch(/^with "q0" as \(.*"q1" as \(/s);
    }
  });

  it('should insert one or several rows with one typed helper, and refuse too many', async () => {
    const one = addSettings([{ key: 'm1', value: 'one' }]);
    expect((await one.query(store.db, one.values as never)).rows).toEqual([{ key: 'm1' }]);
    const [added] = await runTogether(store.db, [
      addSettings([
        { key: 'm2', value: 'two' },
        { key: 'm3', value: 'three' },
      ]),
    ]);
    expect(added).toEqual([{ key: 'm2' }, { key: 'm3' }]);
    const rows = await store.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'like', 'm%')
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'm1', value: 'one' },
      { key: 'm2', value: 'two' },
      { key: 'm3', value: 'three' },
    ]);
    const four = Array.from({ length: 4 }, (_, i) => ({ key: `n${i}`, value: 'x' }));
    expect(() => addSettings(four)).toThrow(RangeError);
  });

  it('should send reads outside a transaction to the driver at once, and nothing else', async () => {
    const viaKysely = vi.spyOn(store.db, 'executeQuery');
    try {
      expect((await byTag(store.db, { tag: 'a', min: 2 })).rows).toEqual([{ value: 'xyz' }]);
      expect(viaKysely).not.toHaveBeenCalled();
      // A write goes through Kysely (and, on SQLite, to the writing connection)...
      expect((await append(store.db, { key: 'a2', from: 'xyz', suffix: '' })).rows).toEqual([
        { value: 'xyz' },
      ]);
      expect(viaKysely).toHaveBeenCalledTimes(1);
    } finally {
      viaKysely.mockRestore();
    }
    // ...and a read inside a transaction sees that transaction's writes, one outside does not.
    const seen: { inside?: unknown; outside?: unknown } = {};
    await expect(
      store.db.transaction().execute(async (trx) => {
        await append(trx, { key: 'a2', from: 'xyz', suffix: '~' });
        seen.inside = (await byTag(trx, { tag: 'a', min: 4 })).rows;
        seen.outside = (await byTag(store.db, { tag: 'a', min: 4 })).rows;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(seen).toEqual({ inside: [{ value: 'xyz~' }], outside: [] });
    expect((await byTag(store.db, { tag: 'a', min: 3 })).rows).toEqual([{ value: 'xyz' }]);
  });
});
