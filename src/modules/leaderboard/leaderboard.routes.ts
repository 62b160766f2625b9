import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { perAddress } from '../../http/rate-limit.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { Entry, LeaderboardQuery } from './leaderboard.schemas.js';
import { leaderboardEntries } from './leaderboard.service.js';

export const leaderboardRoutes: FastifyPluginAsyncTypebox<AppContext> = async (
  app,
  { store, config },
) => {
  app.get(
    '/api/leaderboard',
    {
      onRequest: perAddress(app, config),
      schema: {
        tags: ['game'],
        operationId: 'getLeaderboard',
        summary: 'The leaderboard',
        description:
          'Players who have bought something, by score (market value bought per credit spent), then market value, then who bought first.',
        querystring: LeaderboardQuery,
        response: {
          200: Envelope(Type.Array(Entry), 'The ranked players.'),
          ...errorResponses('validation_error', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await leaderboardEntries(store, request.query.limit ?? 50),
    }),
  );
};
