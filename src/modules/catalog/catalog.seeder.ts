import type { Seeder } from '../../db/database.js';
import { loadCatalogFile } from './catalog.loader.js';
import { syncCatalog } from './catalog.service.js';

/** Loads the shipped catalog file into the database, refreshing listings the file changed. */
export const seedCatalog: Seeder = (store) => syncCatalog(store, loadCatalogFile());
