import { readFileSync } from 'node:fs';
import type { Seeder, Store } from '../../db/database.js';
import { indexFileInWorker, WORKER_FILE_BYTES } from './catalog.indexing.js';
import { CATALOG_DATA_FILE, catalogFromJson } from './catalog.loader.js';
import { catalogFileHash, loadedCatalogHash, syncCatalog } from './catalog.sync.js';

/**
 * Loads a catalog file into the database, refreshing listings the file changed. A file
 * byte-for-byte the same as the one last loaded (under the same index format) is only hashed,
 * not read whole nor parsed. (A file changed between the hash and the read is loaded under the
 * older hash, which the next start finds different: it loads the file again.)
 */
export async function seedCatalogFile(store: Store, file: URL | string): Promise<void> {
  const hash = catalogFileHash(file);
  if ((await loadedCatalogHash(store)) === hash) return;
  const bytes = readFileSync(file);
  // A large file's index is gathered on another thread while this one checks and writes.
  const indexer = bytes.length >= WORKER_FILE_BYTES ? indexFileInWorker(bytes) : undefined;
  try {
    await syncCatalog(store, catalogFromJson(bytes.toString('utf8')), hash, indexer);
  } finally {
    indexer?.stop();
  }
}

/** Loads the shipped catalog file. */
export const seedCatalog: Seeder = (store) => seedCatalogFile(store, CATALOG_DATA_FILE);
