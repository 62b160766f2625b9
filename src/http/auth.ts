import type { FastifyRequest } from 'fastify';
import type { Store } from '../db/database.js';
import { findPlayerIdByKeyHash } from '../modules/players/players.repository.js';
import { AppError } from './errors.js';
import { API_KEY_PATTERN, bearerCredential, sha256Hex } from './secrets.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The player whose API key authenticated this request ('' on public routes). */
    playerId: string;
  }
}

const unauthorized = () =>
  new AppError(
    'unauthorized',
    'A valid API key is required: send Authorization: Bearer <api_key>.',
  );

/** A preHandler for the game's authenticated routes: resolves the key to its player or answers 401. */
export function requirePlayer(store: Store) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = bearerCredential(request.headers.authorization);
    if (key === null || !API_KEY_PATTERN.test(key)) throw unauthorized();
    const playerId = await findPlayerIdByKeyHash(store.db, sha256Hex(key));
    if (playerId === undefined) throw unauthorized();
    request.playerId = playerId;
  };
}
