import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { requirePlayer } from '../../http/auth.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { perApiKey } from '../../http/rate-limit.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { Transaction, TransactionQuery } from './transactions.schemas.js';
import { findTransactions } from './transactions.service.js';

export const transactionsRoutes: FastifyPluginAsyncTypebox<AppContext> = (
  app,
  { store, config },
) => {
  app.get(
    '/api/transactions',
    {
      preHandler: requirePlayer(store),
      config: { rateLimit: perApiKey(config) },
      schema: {
        tags: ['game'],
        summary: 'List completed deals',
        description: 'Newest first, with the product’s details. Deals are public game records.',
        security: [{ apiKey: [] }],
        querystring: TransactionQuery,
        response: {
          200: Envelope(Type.Array(Transaction)),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await findTransactions(store, request.query, publicBaseUrl(request, config)),
    }),
  );
  return Promise.resolve();
};
