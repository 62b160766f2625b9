import { Type } from 'typebox';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { authenticatedRoutes } from '../players/players.auth.js';
import { CategoryName } from '../products/products.schemas.js';
import { Inventory } from './inventory.schemas.js';
import { inventorySummary } from './inventory.service.js';

export const inventoryRoutes = authenticatedRoutes(async (app, { store, config }) => {
  app.get(
    '/api/inventory',
    {
      schema: {
        tags: ['game'],
        operationId: 'getInventory',
        summary: 'Stock summary',
        description:
          'Counts of products and units in stock, per category, with every product; `category` narrows it to one.',
        querystring: Type.Object({ category: Type.Optional(CategoryName) }),
        response: {
          200: Envelope(Inventory, 'Products and stock, in total and per category.'),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await inventorySummary(store, request.query.category, publicBaseUrl(request, config)),
    }),
  );
});
