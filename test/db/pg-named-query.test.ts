import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/db/database.js';
import { runNamed, runNamedOnPool } from '../../src/db/pg-named-query.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';

describe.skipIf(!testDialects.includes('postgres'))('a named statement on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // The database is dropped (its connections ended by force) as soon as the pool has ended:
    // a connection still closing then hears of it, which is no failure of the statements here.
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('should give the same rows, parsed by type, every time it runs', async () => {
    const client = await pool.connect();
    try {
      const text = `select $1::int as id, $2::text as label, null::text as missing,
        9007199254740991::int8 as big, '2026-11-28 10:00:00+00'::timestamptz as at
        from generate_series(1, 2) as n`;
      for (const label of ['first', 'second', 'third']) {
        const result = await runNamed(client, 'test_named_rows', text, [7, label]);
        expect(result.rows).toEqual([
          {
            id: 7,
            label,
            missing: null,
            big: 9007199254740991,
            at: '2026-11-28T10:00:00.000Z',
          },
          {
            id: 7,
            label,
            missing: null,
            big: 9007199254740991,
            at: '2026-11-28T10:00:00.000Z',
          },
        ]);
        expect(result.fields.map((field) => field.name)).toEqual([
          'id',
          'label',
          'missing',
          'big',
          'at',
        ]);
      }
    } finally {
      client.release();
    }
  });

  it('should read rows by their own description when a name comes back with other columns', async () => {
    // Two connections, one name, two statements: the layout kept for the name must not be
    // applied to rows it does not describe.
    const [one, two] = [await pool.connect(), await pool.connect()];
    try {
      for (let i = 0; i < 3; i++) {
        const first = await runNamed(one, 'test_named_layout', 'select $1::int as a', [i]);
        expect(first.rows).toEqual([{ a: i }]);
        const second = await runNamed(
          two,
          'test_named_layout',
          'select $1::text as b, 2::int as c',
          [`v${i}`],
        );
        expect(second.rows).toEqual([{ b: `v${i}`, c: 2 }]);
      }
    } finally {
      one.release();
      two.release();
    }
  });

  it("should reject with the database's error and leave the connection usable", async () => {
    const client = await pool.connect();
    try {
      await expect(
        runNamed(client, 'test_named_error', 'select 1 / $1::int as quotient', [0]),
      ).rejects.toMatchObject({ code: '22012' });
      const result = await runNamed(
        client,
        'test_named_error',
        'select 1 / $1::int as quotient',
        [1],
      );
      expect(result.rows).toEqual([{ quotient: 1 }]);
    } finally {
      client.release();
    }
  });

  it('should run on the pool, which gives its connection back', async () => {
    const result = await runNamedOnPool(pool, 'test_named_pool', 'select $1::text as word', [
      'pooled',
    ]);
    expect(result.rows).toEqual([{ word: 'pooled' }]);
    expect(pool.idleCount).toBe(pool.totalCount);
  });
});
