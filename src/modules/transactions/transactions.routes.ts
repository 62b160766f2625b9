import { Type } from 'typebox';
import { publicBaseUrl } from '../../http/base-url.js';
import { nextPageLink } from '../../http/cursor.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { authenticatedRoutes } from '../players/players.auth.js';
import { Transaction, TransactionQuery } from './transactions.schemas.js';
import { findTransactions } from './transactions.service.js';

export const transactionsRoutes = authenticatedRoutes(async (app, { store, config }) => {
  app.get(
    '/api/transactions',
    {
      schema: {
        tags: ['game'],
        operationId: 'listTransactions',
        summary: 'List completed deals',
        description:
          'Newest first, with the product’s details. Deals are public game records. A page holds `limit` deals ' +
          '(default 100); while more follow, the answer has a `Link: <…&cursor=…>; rel="next"` header.',
        querystring: TransactionQuery,
        response: {
          200: Envelope(Type.Array(Transaction), 'Completed deals, newest first.'),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const baseUrl = publicBaseUrl(request, config);
      const { items, nextCursor } = await findTransactions(store, request.query, baseUrl);
      if (nextCursor !== null) reply.header('link', nextPageLink(request, baseUrl, nextCursor));
      return { success: true as const, data: items };
    },
  );
});
