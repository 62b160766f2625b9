import type { Config } from './config.js';
import { openStore, type Seeder, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedCatalog } from './modules/catalog/catalog.seeder.js';
import { seedProducts } from './modules/products/products.seeder.js';

/** What ships in the repository, in order; see `Seeder` for the rules each one keeps. */
const seeders: Seeder[] = [seedCatalog, seedProducts];

/**
 * Migrates and seeds: everything a fresh or existing database needs before serving. On
 * PostgreSQL it runs on connections of its own, without the serving time limit on statements:
 * it may wait for another process's migration or first load, and build indexes over every row.
 */
export async function prepareStore(store: Store, config: Config): Promise<void> {
  if (store.dialect === 'postgres' && config.databaseStatementTimeoutMs > 0) {
    const setup = openStore({ ...config, databaseStatementTimeoutMs: 0 });
    try {
      await prepare(setup, config);
    } finally {
      await setup.close();
    }
  } else {
    await prepare(store, config);
  }
}

async function prepare(store: Store, config: Config): Promise<void> {
  await migrateToLatest(store);
  for (const seed of seeders) await seed(store, config);
}
