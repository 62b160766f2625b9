import { Type } from 'typebox';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { authenticatedRoutes } from '../players/players.auth.js';
import { CategoryName, Product } from '../products/products.schemas.js';
import { inventorySummary } from './inventory.service.js';

const Inventory = Type.Object({
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

export const inventoryRoutes = authenticatedRoutes((app, { store, config }) => {
  app.get(
    '/api/inventory',
    {
      schema: {
        tags: ['game'],
        summary: 'Stock summary',
        querystring: Type.Object({ category: Type.Optional(CategoryName) }),
        response: {
          200: Envelope(Inventory),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await inventorySummary(store, request.query.category, publicBaseUrl(request, config)),
    }),
  );
  return Promise.resolve();
});
