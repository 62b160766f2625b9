import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * SQLite kept every listing's indexed words three times: in the listing's row, in the FTS5
 * table's own copy of them, and in the index itself. Search reads only the index (matches and
 * bm25), so the FTS5 table becomes contentless (with deletes by rowid) and the listing rows lose
 * their word columns: a catalog sync writes about half as many bytes. PostgreSQL keeps its word
 * columns, which its generated tsvector is built from.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
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
