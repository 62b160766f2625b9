import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Listings gain a lifecycle `status` and a `license_kind` (docs/discovery.md, "Listings"): both
 * become columns, so that searches filter and facet by them and can rank active listings first.
 * They are filled from the stored documents (a listing stored before has `active` and, lacking
 * the field, `unknown`), the SQLite index that searches read matches from is rebuilt to hold
 * them, and the per-combination counts that filter-only searches use (migration 0009) are
 * counted again with them. The next sync writes them with every listing it changes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const field = (...path: string[]) =>
    dialect === 'postgres'
      ? sql`(document::jsonb #>> ${`{${path.join(',')}}`})`
      : sql`json_extract(document, ${`$.${path.join('.')}`})`;
  await sql`alter table catalog_listings add column status text not null default 'active'
    check (status in ('active', 'maintenance', 'deprecated', 'archived'))`.execute(db);
  await sql`alter table catalog_listings add column license_kind text not null default 'unknown'
    check (license_kind in ('open_source', 'source_available', 'proprietary', 'unknown'))`.execute(
    db,
  );
  await sql`update catalog_listings set
    status = coalesce(${field('status')}, 'active'),
    license_kind = coalesce(${field('provenance', 'license_kind')}, 'unknown')`.execute(db);
  if (dialect === 'sqlite') {
    await sql`drop index catalog_listings_matches`.execute(db);
    await sql`create index catalog_listings_matches on catalog_listings
      (seq, kind, categories_key, protocols_key, status, license_kind, updated_at, names_key, name_key, id)`.execute(
      db,
    );
  }
  const { rows } = await sql<{
    kind: string;
    categories_key: string;
    protocols_key: string;
    status: string;
    license_kind: string;
    n: number | string;
  }>`select kind, categories_key, protocols_key, status, license_kind, count(*) as n
     from catalog_listings
     group by kind, categories_key, protocols_key, status, license_kind
     order by kind, categories_key, protocols_key, status, license_kind`.execute(db);
  const value = JSON.stringify(rows.map((row) => ({ ...row, n: Number(row.n) })));
  await sql`insert into settings (key, value) values ('catalog_summary', ${value})
    on conflict (key) do update set value = excluded.value`.execute(db);
  if (dialect === 'sqlite') await sql`analyze catalog_listings`.execute(db);
}
