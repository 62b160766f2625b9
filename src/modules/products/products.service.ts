import type { Store } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { decodeCursor, pageOf, textField, uuidField } from '../../http/cursor.js';
import { CATEGORIES } from '../../seller/index.js';
import {
  findProduct,
  listProducts,
  type ProductFilter,
  type ProductPosition,
} from './products.repository.js';
import { productImageSvg } from './products.image.js';
import { productView, type ProductView } from './products.schemas.js';
import type { ProductRow } from './products.tables.js';

/** A page of products: all of them without `limit`, else `limit` after the cursor's product. */
export async function getProductPage(
  store: Store,
  filter: ProductFilter,
  page: { limit?: number | undefined; cursor?: string | undefined },
  baseUrl: string,
): Promise<{ items: ProductView[]; nextCursor: string | null }> {
  // A cursor continues the list of the filters it was issued for, not another.
  const list = JSON.stringify([
    filter.category ?? null,
    filter.inStock ?? null,
    filter.search ?? null,
  ]);
  const after = page.cursor === undefined ? undefined : decodePosition(page.cursor, list);
  const rows = await listProducts(store.db, filter, {
    after,
    limit: page.limit === undefined ? undefined : page.limit + 1,
  });
  const { items, nextCursor } = pageOf(
    rows,
    page.limit,
    (last) => ({ c: last.category, n: last.name, i: last.id }),
    list,
  );
  const at = new Date().toISOString();
  return { items: items.map((row) => productView(row, baseUrl, at)), nextCursor };
}

function decodePosition(raw: string, list: string): ProductPosition {
  return decodeCursor(
    raw,
    (fields) => {
      const category = CATEGORIES.find((name) => name === fields.c);
      const name = textField(fields, 'n');
      const id = uuidField(fields, 'i');
      if (category === undefined || name === undefined || id === undefined) return;
      return { category, name, id };
    },
    list,
  );
}

export async function getProductRow(store: Store, id: string): Promise<ProductRow> {
  const row = await findProduct(store.db, id);
  if (row === undefined) throw notFound('Product');
  return row;
}

export async function getProduct(store: Store, id: string, baseUrl: string): Promise<ProductView> {
  return productView(await getProductRow(store, id), baseUrl);
}

export async function getProductImage(store: Store, id: string): Promise<string> {
  return productImageSvg(await getProductRow(store, id));
}
