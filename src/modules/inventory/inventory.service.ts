import type { Store } from '../../db/database.js';
import type { Category } from '../../seller/index.js';
import type { ProductView } from '../products/products.schemas.js';
import { getProductPage } from '../products/products.service.js';

export interface InventorySummary {
  total_products: number;
  total_stock: number;
  in_stock_products: number;
  out_of_stock_products: number;
  categories: { name: Category; count: number; total_stock: number }[];
  products: ProductView[];
}

export async function inventorySummary(
  store: Store,
  category: Category | undefined,
  baseUrl: string,
): Promise<InventorySummary> {
  const { items: products } = await getProductPage(store, { category }, {}, baseUrl);
  const byCategory = new Map<Category, { name: Category; count: number; total_stock: number }>();
  for (const product of products) {
    const entry = byCategory.get(product.category) ?? {
      name: product.category,
      count: 0,
      total_stock: 0,
    };
    entry.count += 1;
    entry.total_stock += product.stock_quantity;
    byCategory.set(product.category, entry);
  }
  return {
    total_products: products.length,
    total_stock: products.reduce((sum, product) => sum + product.stock_quantity, 0),
    in_stock_products: products.filter((product) => product.stock_quantity > 0).length,
    out_of_stock_products: products.filter((product) => product.stock_quantity === 0).length,
    categories: [...byCategory.values()],
    products,
  };
}
