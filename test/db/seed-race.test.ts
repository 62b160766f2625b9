import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedProducts } from '../../src/modules/products/products.seeder.js';
import { productSeed } from '../../src/modules/products/products.seed.js';
import type { Config } from '../../src/config.js';
import {
  createTestDatabase,
  openTestStore,
  testDialects,
  type TestDatabase,
} from '../helpers/databases.js';

// SQLite takes one writer at a time; PostgreSQL runs the seeders' inserts side by side.
describe.runIf(testDialects.includes('postgres'))(
  'seeding products from processes started together (postgres)',
  () => {
    let database: TestDatabase;
    let stores: Store[];

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      stores = Array.from({ length: 8 }, () => openTestStore(database));
      await migrateToLatest(stores[0] as Store);
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await database.drop();
    });

    it('should leave one row per product, every seeder succeeding, however their rows interleave', async () => {
      const [first] = stores as [Store];
      // The race needs two inserts to pass the same row's first check together: many rounds.
      for (let round = 0; round < 40; round++) {
        await sql`delete from products`.execute(first.db);
        await Promise.all(stores.map((store) => seedProducts(store, {} as Config)));
        const { rows } = await sql<{ n: string }>`select count(*) as n from products`.execute(
          first.db,
        );
        expect(Number(rows[0]?.n)).toBe(productSeed.length);
      }
    });
  },
);
