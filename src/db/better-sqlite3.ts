import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 12 wraps its objects with node::ObjectWrap, which aborts Node 24.19 and later
 * when a garbage-collected statement is finalized; 13 uses N-API and ships prebuilt binaries,
 * but needs Node 22. So Node 20 loads 12 (compiled at install) and newer Node loads 13, an
 * optional dependency that npm skips on Node 20. Both have the same API.
 */
function load(): typeof BetterSqlite3 {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      return require('better-sqlite3-napi') as typeof BetterSqlite3;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  return require('better-sqlite3') as typeof BetterSqlite3;
}

/** The better-sqlite3 `Database` class for the Node.js this process runs on. */
export const BetterSqlite = load();
export type BetterSqliteDatabase = BetterSqlite3.Database;
