import type { Config } from './config.js';
import type { Seeder, Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedCatalog } from './modules/catalog/catalog.seeder.js';
import { seedProducts } from './modules/products/products.seeder.js';

/** What ships in the repository, in order; see `Seeder` for the rules each one keeps. */
const seeders: Seeder[] = [seedCatalog, seedProducts];

/** Migrates and seeds: everything a fresh or existing database needs before serving. */
export async function prepareStore(store: Store, config: Config): Promise<void> {
  await migrateToLatest(store);
  for (const seed of seeders) await seed(store, config);
}
