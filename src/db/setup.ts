import type { Config } from '../config.js';
import type { Store } from './database.js';
import { seedCatalog } from '../modules/catalog/catalog.seeder.js';
import { seedProducts } from '../modules/products/products.seeder.js';
import { migrateToLatest } from './migrate.js';

/**
 * Fills a migrated database with what ships in the repository. Each seeder must be idempotent
 * (restarts never duplicate data) and safe when several processes start at once.
 */
export type Seeder = (store: Store, config: Config) => Promise<void>;

const seeders: Seeder[] = [seedCatalog, seedProducts];

/** Migrates and seeds: everything a fresh or existing database needs before serving. */
export async function prepareStore(store: Store, config: Config): Promise<void> {
  await migrateToLatest(store);
  for (const seed of seeders) await seed(store, config);
}
