import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import {
  createTestDatabase,
  openTestStore,
  testDialects,
  type TestDatabase,
} from '../helpers/databases.js';

/**
 * A page of the catalog without a query is the first rows in name order: an index must give
 * them, or every such page sorts the whole catalog (PostgreSQL's name order is `collate "C"`).
 */
describe.each(testDialects)('catalog name order (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = openTestStore(database);
    await migrateToLatest(store);
  });

  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it.each([
    ['all listings', sql``],
    ['one kind', sql`where l.kind = 'tool'`],
  ])('should read a page of %s from an index, without sorting', async (_label, where) => {
    const byName = dialect === 'postgres' ? sql`l.name_key collate "C"` : sql`l.name_key`;
    const plan = await store.db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const explain = dialect === 'postgres' ? sql`explain` : sql`explain query plan`;
      const result = await sql<
        Record<string, unknown>
      >`${explain} select l.id from catalog_listings l ${where}
        order by ${byName}, l.id limit 20`.execute(trx);
      return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toMatch(/catalog_listings_(kind_)?order/);
    expect(plan).not.toMatch(/Sort|TEMP B-TREE/);
  });
});
