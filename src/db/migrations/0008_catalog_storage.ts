import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * How the catalog is stored, for a sync that writes 100,000s of listings:
 *
 * - SQLite kept every listing's indexed words three times: in the listing's row, in the FTS5
 *   table's own copy of them, and in the index itself. Search reads only the index (matches and
 *   bm25), so the FTS5 table becomes contentless (with deletes by rowid) and the listing rows
 *   lose their word columns: a sync writes about half as many bytes. PostgreSQL keeps its word
 *   columns, which its generated tsvector is built from.
 * - PostgreSQL compresses a listing's document (and long word lists) when its row outgrows 2 kB,
 *   which most do; LZ4, where the server has it, compresses and decompresses several times
 *   faster than the default pglz. Rows written before keep their compression.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const lz4 = await sql<{ available: boolean }>`select 'lz4' = any(enumvals) as available
      from pg_settings where name = 'default_toast_compression'`.execute(db);
    if (lz4.rows[0]?.available !== true) return;
    await sql`alter table catalog_listings
      alter column document set compression lz4,
      alter column body_words set compression lz4,
      alter column search_vector set compression lz4`.execute(db);
    return;
  }
  await sql`drop table catalog_search`.execute(db);
  await sql`create virtual table catalog_search using fts5(
    name_words, alias_words, tag_words, body_words,
    tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
  )`.execute(db);
  await sql`insert into catalog_search (rowid, name_words, alias_words, tag_words, body_words)
    select seq, name_words, alias_words, tag_words, body_words from catalog_listings`.execute(db);
  for (const column of ['name_words', 'alias_words', 'tag_words', 'body_words']) {
    await sql`alter table catalog_listings drop column ${sql.ref(column)}`.execute(db);
  }
}
