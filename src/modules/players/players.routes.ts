import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { nextPageLink } from '../../http/cursor.js';
import { keyRotationsPerMinute, perAddressHourly } from '../../http/rate-limit.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import {
  NewPlayer,
  Player,
  PlayerParams,
  PlayerQuery,
  PlayerStats,
  RegisterBody,
} from './players.schemas.js';
import { authenticatedRoutes } from './players.auth.js';
import { findPlayers, getPlayer, getStats, register, rotateKey } from './players.service.js';

export const playersRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { store, config } = context;

  app.post(
    '/api/players',
    {
      config: { rateLimit: perAddressHourly(config) },
      schema: {
        tags: ['players'],
        operationId: 'registerPlayer',
        summary: 'Register, or find an existing player',
        description:
          'A new username and e-mail → 201 with the new player and its `api_key`, shown only this once. ' +
          'A username or e-mail that exists → 200 with that player and no key; its e-mail is shown only if you sent it. ' +
          'A username of one player with the e-mail of another → 409 `identity_conflict`.',
        body: RegisterBody,
        response: {
          201: Envelope(NewPlayer, 'A new player, with its API key shown only now.'),
          200: Envelope(
            Player,
            'The player that already has this username or e-mail, without a key.',
          ),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'identity_conflict',
            'rate_limited',
          ),
        },
      },
    },
    async (request, reply) => {
      const result = await register(store, request.body);
      if (!result.created) return reply.send({ success: true, data: result.player });
      return reply
        .code(201)
        .header('location', `${publicBaseUrl(request, config)}/api/players/${result.player.id}`)
        .send({ success: true, data: result.player });
    },
  );

  await app.register(authenticatedPlayerRoutes, context);
};

const authenticatedPlayerRoutes = authenticatedRoutes(async (app, { store, config }) => {
  app.get(
    '/api/players',
    {
      schema: {
        tags: ['players'],
        operationId: 'listPlayers',
        summary: 'List or find players',
        description:
          'Without filters, every player, oldest first, in pages of `limit` (default 1000); while more follow, ' +
          'the answer has a `Link: <…&cursor=…>; rel="next"` header. E-mails are shown only on your own record.',
        querystring: PlayerQuery,
        response: {
          200: Envelope(Type.Array(Player), 'The players found, oldest first.'),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = await findPlayers(store, request.playerId, request.query);
      if (nextCursor !== null) {
        reply.header('link', nextPageLink(request, publicBaseUrl(request, config), nextCursor));
      }
      return { success: true as const, data: items };
    },
  );

  app.get(
    '/api/players/me',
    {
      schema: {
        tags: ['players'],
        operationId: 'getMe',
        summary: 'Read your own player record',
        description:
          'The player whose API key sent the request, with its e-mail: how a client that holds only a key learns its player id.',
        response: {
          200: Envelope(Player, 'Your own record, with your e-mail.'),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPlayer(store, request.playerId, request.playerId),
    }),
  );

  app.get(
    '/api/players/:id',
    {
      schema: {
        tags: ['players'],
        operationId: 'getPlayer',
        summary: 'Read one player',
        description:
          'Any player’s public record: username, credits and totals. The e-mail address is shown only on your own record.',
        params: PlayerParams,
        response: {
          200: Envelope(Player, 'The player’s record; the e-mail only on your own.'),
          ...errorResponses('validation_error', 'unauthorized', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPlayer(store, request.playerId, request.params.id),
    }),
  );

  app.get(
    '/api/players/:id/stats',
    {
      schema: {
        tags: ['players'],
        operationId: 'getPlayerStats',
        summary: "A player's statistics and rank",
        description:
          'Credits, totals, score (market value bought / credits spent), rank, savings, negotiation counts and best discount of any player; pass your own id to see where you stand.',
        params: PlayerParams,
        response: {
          200: Envelope(PlayerStats, 'The player’s statistics and leaderboard rank.'),
          ...errorResponses('validation_error', 'unauthorized', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getStats(store, request.params.id, config.haggleIdleMinutes),
    }),
  );

  app.post(
    '/api/players/:id/rotate-key',
    {
      config: { rotatesKey: true },
      schema: {
        tags: ['players'],
        operationId: 'rotateApiKey',
        summary: 'Replace your API key',
        description: `Returns a new key, shown only this once; the old key stops working at once. Rotations have a limit of their own (${keyRotationsPerMinute(config)} a minute per player): a player whose requests reached the per-player limit can still replace the key.`,
        params: PlayerParams,
        response: {
          200: Envelope(NewPlayer, 'Your record with the new API key, shown only now.'),
          // A body is not taken, but one sent as JSON is parsed (and refused if it is not JSON).
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'unauthorized',
            'forbidden',
            'rate_limited',
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await rotateKey(
        store,
        { id: request.playerId, keyHash: request.apiKeyHash },
        request.params.id,
      ),
    }),
  );
});
