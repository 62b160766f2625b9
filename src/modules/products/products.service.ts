import type { Store } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { findProduct, listProducts, type ProductFilter } from './products.repository.js';
import { productImageSvg } from './products.image.js';
import { productView, type ProductView } from './products.schemas.js';
import type { ProductRow } from './products.tables.js';

export async function getProducts(
  store: Store,
  filter: ProductFilter,
  baseUrl: string,
): Promise<ProductView[]> {
  const rows = await listProducts(store.db, filter);
  const at = new Date().toISOString();
  return rows.map((row) => productView(row, baseUrl, at));
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
