import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { perAddress } from '../../http/rate-limit.js';
import { Envelope, errorResponses, Money, Uuid } from '../../http/schemas.js';
import { leaderboardEntries } from './leaderboard.service.js';

const Entry = Type.Object({
  id: Uuid('The player id.'),
  username: Type.String(),
  total_market_value: Money(),
  total_spent: Money(),
  score: Type.Number({
    description: 'total_market_value / total_spent, 2 decimals.',
    example: 1.18,
  }),
  items_purchased: Type.Integer({ minimum: 1 }),
  total_savings: Money(),
  rank: Type.Integer({ minimum: 1, description: 'Equal scores share a rank (1, 2, 2, 4).' }),
});

const LeaderboardQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
});

export const leaderboardRoutes: FastifyPluginAsyncTypebox<AppContext> = (
  app,
  { store, config },
) => {
  app.get(
    '/api/leaderboard',
    {
      config: { rateLimit: perAddress(config) },
      schema: {
        tags: ['game'],
        summary: 'The leaderboard',
        description:
          'Players who have bought something, by score (market value bought per credit spent), then market value, then who bought first.',
        querystring: LeaderboardQuery,
        response: {
          200: Envelope(Type.Array(Entry)),
          ...errorResponses('validation_error', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await leaderboardEntries(store, request.query.limit ?? 50),
    }),
  );
  return Promise.resolve();
};
