import { sql } from 'kysely';
import { compiledOnce, type Step } from '../../db/prepared.js';
import type { Db } from '../../db/schema.js';
import type { Category } from '../../seller/index.js';
import type { ProductRow } from './products.tables.js';

export interface ProductFilter {
  category?: Category | undefined;
  /** true: only products with stock; false or unset: all. */
  inStock?: boolean | undefined;
  search?: string | undefined;
}

/** `%` and `_` in the user's text are searched for literally, not as wildcards. */
const likePattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where a page starts: after this product in the order (category, name, id). */
export interface ProductPosition {
  category: Category;
  name: string;
  id: string;
}

export function listProducts(
  db: Db,
  filter: ProductFilter,
  page: { after?: ProductPosition | undefined; limit?: number | undefined } = {},
): Promise<ProductRow[]> {
  const { after, limit } = page;
  const search =
    filter.search === undefined || filter.search === '' ? undefined : likePattern(filter.search);
  return db
    .selectFrom('products')
    .selectAll()
    .$if(filter.category !== undefined, (query) =>
      query.where('category', '=', filter.category ?? 'Books'),
    )
    .$if(filter.inStock === true, (query) => query.where('stock_quantity', '>', 0))
    .$if(search !== undefined, (query) =>
      query.where(
        sql<boolean>`(lower(name) like ${search} escape '\\' or lower(description) like ${search} escape '\\')`,
      ),
    )
    .$if(after !== undefined, (query) =>
      query.where(
        sql<boolean>`(category, name, id) > (${after?.category}, ${after?.name}, ${after?.id})`,
      ),
    )
    .orderBy('category')
    .orderBy('name')
    .orderBy('id')
    .$if(limit !== undefined, (query) => query.limit(limit ?? 0))
    .execute();
}

const productById = compiledOnce((db, values: { id: string }) =>
  db.selectFrom('products').selectAll().where('id', '=', values.id),
);

export async function findProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  return (await productById(db, { id })).rows[0];
}

/** What a deal's update leaves on the product row. */
export type SoldRow = Pick<
  ProductRow,
  'stock_quantity' | 'sale_hour' | 'sales_this_hour' | 'sales_hour_before'
>;

/**
 * Takes one unit for a deal, only while one is left (the CHECK constraint is the backstop), and
 * counts the sale in the product's recent sales (`SalesRecord`), in the same statement: every
 * process reads the same demand from the row. Its row holds what it left; no row when none was
 * left. A sale stamped earlier than the latest (another process's clock) counts in the latest hour.
 */
export function takeOneFromStock(productId: string, now: string, hour: number): Step<SoldRow> {
  return takeOne.with({ productId, now, hour, hourBefore: hour - 1 });
}

const takeOne = compiledOnce(
  (db, values: { productId: string; now: string; hour: number; hourBefore: number }) =>
    db
      .updateTable('products')
      .set((eb) => ({
        stock_quantity: eb('stock_quantity', '-', 1),
        updated_at: values.now,
        sales_hour_before: eb
          .case()
          .when('sale_hour', '>=', values.hour)
          .then(eb.ref('sales_hour_before'))
          .when('sale_hour', '=', values.hourBefore)
          .then(eb.ref('sales_this_hour'))
          .else(0)
          .end(),
        sales_this_hour: eb
          .case()
          .when('sale_hour', '>=', values.hour)
          .then(eb('sales_this_hour', '+', 1))
          .else(1)
          .end(),
        sale_hour: eb
          .case()
          .when('sale_hour', '>', values.hour)
          .then(eb.ref('sale_hour'))
          .else(values.hour)
          .end(),
      }))
      .where('id', '=', values.productId)
      .where('stock_quantity', '>', 0)
      .returning(['stock_quantity', 'sale_hour', 'sales_this_hour', 'sales_hour_before']),
);

/**
 * Inserts the products no row has yet. Any unique key (the id, the name) is a conflict to skip:
 * on PostgreSQL, with only the id named, two processes seeding at once could both pass the id's
 * check, and the second then failed on the name's.
 */
export async function insertMissingProducts(db: Db, products: ProductRow[]): Promise<void> {
  if (products.length === 0) return;
  await db
    .insertInto('products')
    .values(products)
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}
