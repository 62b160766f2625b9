import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { nextPageLink } from '../../http/cursor.js';
import { perAddress } from '../../http/rate-limit.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { authenticatedRoutes } from '../players/players.auth.js';
import { Product, ProductParams, ProductQuery } from './products.schemas.js';
import { getProduct, getProductImage, getProductPage } from './products.service.js';

export const productsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { store, config } = context;

  app.get(
    '/api/products',
    {
      onRequest: perAddress(app, config),
      schema: {
        tags: ['products'],
        operationId: 'listProducts',
        summary: 'List products',
        description:
          'Every product the seller offers, by category and name. No key needed. With `limit`, a page at a time: ' +
          'while more follow, the answer has a `Link: <…&cursor=…>; rel="next"` header.',
        querystring: ProductQuery,
        response: {
          200: Envelope(Type.Array(Product), 'The products, by category and name.'),
          ...errorResponses('validation_error', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const { category, in_stock, search, ...page } = request.query;
      const baseUrl = publicBaseUrl(request, config);
      const { items, nextCursor } = await getProductPage(
        store,
        { category, inStock: in_stock, search },
        page,
        baseUrl,
      );
      if (nextCursor !== null) reply.header('link', nextPageLink(request, baseUrl, nextCursor));
      return { success: true as const, data: items };
    },
  );

  await app.register(
    authenticatedRoutes(async (app) => {
      app.get(
        '/api/products/:id',
        {
          // One product is a few hundred bytes, under COMPRESSION_THRESHOLD_BYTES (the test of
          // the products checks every seeded one): no compression hook on the hottest read.
          compress: false,
          schema: {
            tags: ['products'],
            operationId: 'getProduct',
            summary: 'Read one product',
            description:
              'One product by id: name, description, market price, category, stock and image.',
            params: ProductParams,
            response: {
              200: Envelope(Product, 'The product, with its market price and stock.'),
              ...errorResponses('validation_error', 'unauthorized', 'not_found', 'rate_limited'),
            },
          },
        },
        async (request) => ({
          success: true as const,
          data: await getProduct(store, request.params.id, publicBaseUrl(request, config)),
        }),
      );
    }),
    context,
  );

  app.get(
    '/images/products/:id.svg',
    {
      onRequest: perAddress(app, config),
      schema: {
        tags: ['products'],
        operationId: 'getProductImage',
        summary: "A product's image (SVG)",
        description: 'A generated SVG picture of the product, cacheable for a day.',
        params: ProductParams,
        produces: ['image/svg+xml'],
        response: {
          200: Type.String({ description: 'SVG document.' }),
          ...errorResponses('validation_error', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const svg = await getProductImage(store, request.params.id);
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );
};
