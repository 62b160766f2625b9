import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The catalog summary kept in `settings` held the total and facets of the whole catalog. It now
 * holds how many listings have each combination of kind, categories and protocols, from which
 * the total and facets of any search by filters alone are worked out without counting listings
 * (see catalog.facets.ts). A sync writes it; this fills it in for a catalog already loaded.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const { rows } = await sql<{
    kind: string;
    categories_key: string;
    protocols_key: string;
    n: number | string;
  }>`select kind, categories_key, protocols_key, count(*) as n from catalog_listings
     group by kind, categories_key, protocols_key
     order by kind, categories_key, protocols_key`.execute(db);
  const value = JSON.stringify(rows.map((row) => ({ ...row, n: Number(row.n) })));
  await sql`insert into settings (key, value) values ('catalog_summary', ${value})
    on conflict (key) do update set value = excluded.value`.execute(db);
}
