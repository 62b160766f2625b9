import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { API_KEY_PATTERN, bearerCredential, sha256Hex } from '../../http/secrets.js';
import { findPlayerIdByKeyHash } from './players.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The player whose API key authenticated this request ('' on public routes). */
    playerId: string;
    /** The SHA-256 of the API key that authenticated this request ('' on public routes). */
    apiKeyHash: string;
  }
  interface FastifyContextConfig {
    /** The route replaces the key: counted on the player's key rotations, not its requests. */
    rotatesKey?: boolean;
  }
}

/** A request without a player's key: what came instead, and what to send. */
function unauthorized(header: string | undefined, key: string | null): AppError {
  const message =
    header === undefined
      ? 'An API key is required: send Authorization: Bearer <api_key> (POST /api/players registers a player and returns its key).'
      : key === null
        ? 'The Authorization header must be the word Bearer, a space and the API key: Authorization: Bearer <api_key>.'
        : !API_KEY_PATTERN.test(key)
          ? 'That is not an API key: a key is hg_ followed by 48 hexadecimal characters, sent as Authorization: Bearer <api_key> without quotes.'
          : 'This API key is not valid: no player has it, or a rotation replaced it (only the newest key works). A lost key cannot be recovered: register a new player.';
  return new AppError('unauthorized', message);
}

/**
 * Wraps the game's authenticated routes: each request must carry a player's API key (401
 * otherwise), is counted per player once authenticated (so a new key does not reset the count;
 * a key rotation is counted on its own, so a player at the limit can still replace the key),
 * and every failed authentication is counted per client address (so guessing keys is limited
 * too). The key is checked as the request arrives, before its body is read or validated: a
 * request without a valid key is 401 whatever else is wrong with it. The routes' OpenAPI
 * entries get the `apiKey` security requirement.
 */
export function authenticatedRoutes(
  routes: FastifyPluginAsyncTypebox<AppContext>,
): FastifyPluginAsyncTypebox<AppContext> {
  return async (app, context) => {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = bearerCredential(request.headers.authorization);
      const keyHash = key === null || !API_KEY_PATTERN.test(key) ? undefined : sha256Hex(key);
      const playerId =
        keyHash === undefined ? undefined : await findPlayerIdByKeyHash(context.store.db, keyHash);
      if (playerId === undefined) {
        // Answers 429 once this address has failed too often, 401 until then.
        await app.gameLimits.failedAuthentication(request, reply);
        throw unauthorized(request.headers.authorization, key);
      }
      request.playerId = playerId;
      request.apiKeyHash = keyHash ?? '';
      // Counted in this process, the answer is immediate: no promise to wait for.
      const limit =
        request.routeOptions.config.rotatesKey === true
          ? app.gameLimits.keyRotations
          : app.gameLimits.perPlayer;
      const counted = limit(request, reply);
      if (counted !== undefined) await counted;
    });
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: [{ apiKey: [] }] };
    });
    await routes(app, context);
  };
}
