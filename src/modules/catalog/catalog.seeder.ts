import { readFileSync } from 'node:fs';
import type { Seeder, Store } from '../../db/database.js';
import { CATALOG_DATA_FILE, catalogFromJson } from './catalog.loader.js';
import { catalogFileHash, loadedCatalogHash, syncCatalog } from './catalog.sync.js';

/**
 * Loads a catalog file into the database, refreshing listings the file changed. A file
 * byte-for-byte the same as the one last loaded (under the same index format) is not even parsed.
 */
export async function seedCatalogFile(store: Store, file: URL | string): Promise<void> {
  const bytes = readFileSync(file);
  const hash = catalogFileHash(bytes);
  if ((await loadedCatalogHash(store)) === hash) return;
  await syncCatalog(store, catalogFromJson(bytes.toString('utf8')), hash);
}

/** Loads the shipped catalog file. */
export const seedCatalog: Seeder = (store) => seedCatalogFile(store, CATALOG_DATA_FILE);
