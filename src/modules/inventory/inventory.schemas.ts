import { Type } from 'typebox';
import { CategoryName, Product } from '../products/products.schemas.js';

export const Inventory = Type.Object({
  total_products: Type.Integer({ minimum: 0 }),
  total_stock: Type.Integer({ minimum: 0 }),
  in_stock_products: Type.Integer({ minimum: 0 }),
  out_of_stock_products: Type.Integer({ minimum: 0 }),
  categories: Type.Array(
    Type.Object({
      name: CategoryName,
      count: Type.Integer({ minimum: 0 }),
      total_stock: Type.Integer({ minimum: 0 }),
    }),
  ),
  products: Type.Array(Product),
});
