// Bulk writes: a load of 100,000s of rows builds its indexes once, after the rows, and SQLite
// gives it a larger page cache. Used by the catalog sync (bench/LOG.md has the measurements).

import { sql } from 'kysely';
import type { Dialect } from './database.js';
import type { Db } from './schema.js';

/** An index dropped for a bulk load, with the statement that makes it again. */
export interface DroppedIndex {
  name: string;
  definition: string;
}

/**
 * Drops the tables' indexes that no constraint needs (the unique and primary keys stay) and
 * returns their definitions, for `createIndexes` to build once the rows are in: built from all
 * rows at once, an index costs a fraction of updating it on each of 100,000s of inserts. The
 * definitions are read from the database, so the migrations stay their one source. On
 * PostgreSQL the dropped indexes lock the tables until the transaction ends.
 */
export async function dropIndexes(
  db: Db,
  dialect: Dialect,
  tables: readonly string[],
): Promise<DroppedIndex[]> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<DroppedIndex>`select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
          from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = any(${tables}::regclass[])
            and not exists (select from pg_constraint k where k.conindid = i.indexrelid)
          order by c.relname`.execute(db)
      : await sql<DroppedIndex>`select name, sql as definition from sqlite_master
          where type = 'index' and sql is not null and tbl_name in (${sql.join(tables)})
          order by name`.execute(db);
  for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(db);
  return rows;
}

export async function createIndexes(db: Db, indexes: readonly DroppedIndex[]): Promise<void> {
  for (const { definition } of indexes) await sql.raw(definition).execute(db);
}

/**
 * SQLite: runs `write` with a page cache of `mebibytes` on the writing connection (its default
 * is 2 MiB), the one before restored after. A load that touches more pages than the cache holds
 * writes some pages to the log again and again.
 */
export async function withPageCache<T>(
  db: Db,
  dialect: Dialect,
  mebibytes: number,
  write: () => Promise<T>,
): Promise<T> {
  if (dialect !== 'sqlite') return write();
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const before = rows[0]?.cache_size ?? -2000;
  await sql.raw(`pragma cache_size = ${-1024 * mebibytes}`).execute(db);
  try {
    return await write();
  } finally {
    await sql.raw(`pragma cache_size = ${before}`).execute(db);
  }
}
