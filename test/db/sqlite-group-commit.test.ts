import { readdirSync, readlinkSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetterSqlite, type BetterSqliteDatabase } from '../../src/db/better-sqlite3.js';
import { openStore, type Store } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';

/**
 * The SQLite driver commits transactions that run while others wait in one COMMIT (see
 * BazaarSqliteDriver). What must hold: nobody is told a transaction committed before another
 * process can see it; a failed transaction undoes only itself; reads and writes outside a
 * transaction never see or leave a batch half-committed.
 */
describe('SQLite group commit', () => {
  let database: TestDatabase;
  let store: Store;
  /** Another process's view of the file: it sees only what was committed. */
  let outside: BetterSqliteDatabase;

  const committed = (): string[] =>
    (outside.prepare('select key from settings order by key').all() as { key: string }[]).map(
      (row) => row.key,
    );

  const put = (key: string) =>
    store.db.insertInto('settings').values({ key, value: 'v' }).execute();

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    if (database.target.dialect !== 'sqlite') throw new Error('SQLite only');
    store = openStore({
      database: database.target,
      sqliteBusyTimeoutMs: 1000,
      sqliteSynchronous: 'FULL',
    });
    await store.db.schema
      .createTable('settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .execute();
    outside = new BetterSqlite(database.target.path, { readonly: true });
  });

  afterEach(async () => {
    outside.close();
    await store.close();
    await database.drop();
  });

  it('should share a commit among transactions that ran together, and answer none before it', async () => {
    const seenInside: string[][] = [];
    const seenWhenAnswered: string[][] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const key = `k${String(i).padStart(2, '0')}`;
        await store.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key, value: 'v' }).execute();
          seenInside.push(committed());
        });
        seenWhenAnswered.push(committed());
        expect(committed()).toContain(key);
      }),
    );
    // The ten ran one after another on the one connection, but none was committed while the
    // others ran: they went to disk together.
    expect(seenInside).toEqual(Array.from({ length: 10 }, () => []));
    expect(seenWhenAnswered[0]).toHaveLength(10);
  });

  it('should undo a failed transaction alone and commit the rest of its batch', async () => {
    // The first opens the batch (no savepoint of its own); the third joins it in a savepoint.
    const fails = new Set(['a', 'c']);
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((key) =>
        store.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key, value: 'v' }).execute();
          await trx
            .insertInto('settings')
            .values({ key: `${key}2`, value: 'v' })
            .execute();
          if (fails.has(key)) throw new Error('changed its mind');
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(committed()).toEqual(['b', 'b2', 'd', 'd2']);
  });

  // SQLite's temporary files are deleted as soon as they are opened: only the process's open
  // files show them (Linux).
  it.runIf(process.platform === 'linux')(
    "should keep a joined transaction's savepoint journal in memory, not in a temporary file",
    async () => {
      const value = 'x'.repeat(2000);
      await store.db
        .insertInto('settings')
        .values(Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, value })))
        .execute();
      const temporaryFiles = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).includes('etilqs_');
          } catch {
            return false; // closed meanwhile
          }
        }).length;
      let openDuring = -1;
      await Promise.all([
        // Opens the batch.
        store.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'first', value: 'v' }).execute();
        }),
        // Joins it in a savepoint, then changes about 200 KB of pages that existed before, a row
        // at a time as a deal does.
        store.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 100; i++) {
            await trx
              .updateTable('settings')
              .set({ value: value.replace(/x/g, 'y') })
              .where('key', '=', `k${i}`)
              .execute();
          }
          openDuring = temporaryFiles();
        }),
      ]);
      expect(openDuring).toBe(0);
      expect(committed()).toHaveLength(101);
    },
  );

  it('should not let a read outside a transaction see a batch before its commit', async () => {
    let readDuring: unknown[] = ['not read'];
    const writing = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'w', value: 'v' }).execute();
    });
    // Queued behind the transaction above, so it runs before the batch's commit.
    const during = store.db.transaction().execute(async () => {
      readDuring = await store.db.selectFrom('settings').select('key').execute();
    });
    await Promise.all([writing, during]);
    expect(readDuring).toEqual([]);
    expect(await store.db.selectFrom('settings').select('key').execute()).toEqual([{ key: 'w' }]);
  });

  it('should commit an open batch before a write outside a transaction, and that write too', async () => {
    const inBatch = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'x', value: 'v' }).execute();
    });
    await put('y');
    expect(committed()).toEqual(['x', 'y']);
    await inBatch;
  });

  it('should fail every transaction of a batch the disk cannot take, and leave none half-open', async () => {
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(store.db);
    await sql
      .raw(`pragma max_page_count = ${(pages.rows[0]?.page_count ?? 0) + 2}`)
      .execute(store.db);
    const big = 'x'.repeat(3000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        store.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('settings')
            .values({ key: `big${i}`, value: big })
            .execute();
        }),
      ),
    );
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) {
      expect(outcome.reason).toMatchObject({ code: expect.stringMatching(/^SQLITE_FULL/) });
    }
    // Exactly the transactions answered as committed are on disk.
    const answered = outcomes.flatMap((outcome, i) =>
      outcome.status === 'fulfilled' ? [`big${i}`] : [],
    );
    expect(committed()).toEqual(answered);
    await sql.raw('pragma max_page_count = 1073741823').execute(store.db);
    await put('after');
    expect(committed()).toContain('after');
  });
});
