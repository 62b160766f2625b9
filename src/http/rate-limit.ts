import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import { clientOf } from './client-address.js';

/**
 * Registers the rate limiter without applying it anywhere; routes opt in through
 * `config: { rateLimit: … }`. Counters live in Redis when REDIS_URL is set (shared by every
 * process), otherwise in each process's memory.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.redisUrl === null ? undefined : await connectRedis(app, config.redisUrl);
  if (redis !== undefined) {
    app.addHook('onClose', async () => {
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    // A limiter that cannot reach its store lets requests through rather than failing them.
    skipOnError: true,
    ...(redis === undefined ? {} : { redis, nameSpace: 'bazaar-rate-limit-' }),
    errorResponseBuilder: (_request, context) => rateLimited(context.after),
  });
  // Created once, so every authenticated route shares one counter per player and one per address.
  const perMinute = { max: config.limits.gameRequestsPerMinute, timeWindow: 60_000 };
  const perPlayer = (request: FastifyRequest) => `player:${request.playerId}`;
  const rotations = { max: keyRotationsPerMinute(config), timeWindow: 60_000 };
  const keyRotations = (request: FastifyRequest) => `key-rotation:${request.playerId}`;
  const failedAuthentication = (request: FastifyRequest) => `auth-failed:${clientOf(request.ip)}`;
  app.decorate(
    'gameLimits',
    redis === undefined
      ? {
          perPlayer: countedInMemory(perMinute.max, perMinute.timeWindow, perPlayer),
          keyRotations: countedInMemory(rotations.max, rotations.timeWindow, keyRotations),
          failedAuthentication: countedInMemory(
            perMinute.max,
            perMinute.timeWindow,
            failedAuthentication,
          ),
        }
      : {
          perPlayer: app.rateLimit({ ...perMinute, keyGenerator: perPlayer }),
          keyRotations: app.rateLimit({ ...rotations, keyGenerator: keyRotations }),
          failedAuthentication: app.rateLimit({ ...perMinute, keyGenerator: failedAuthentication }),
        },
  );
}

/**
 * Key rotations a player may make in a minute (at most the per-player limit). Counted on their
 * own: a player whose requests used up the per-player limit (a runaway client, or someone
 * holding a leaked key) can still replace the key at once.
 */
export const KEY_ROTATIONS_PER_MINUTE = 10;

/** This service's limit on key rotations: never more than the player's own limit. */
export const keyRotationsPerMinute = (config: Config): number =>
  Math.min(KEY_ROTATIONS_PER_MINUTE, config.limits.gameRequestsPerMinute);

const rateLimited = (after: string) =>
  new AppError('rate_limited', `Too many requests; retry in ${after}.`);

/** "1 second", "45 seconds", "1 minute": how the plugin words the wait, for waits under an hour. */
const waitOf = (seconds: number): string => {
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.round(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
};

/** At most this many keys counted at once in memory (the plugin's own store keeps as many). */
export const MAX_COUNTED_KEYS = 5000;

/**
 * The game's per-minute counters when this process counts alone (no Redis): the plugin's fixed
 * windows (a key's window starts at its first request; past `max` in it, 429 until it ends) and
 * its headers, as a map lookup instead of the plugin's promises per request (bench/LOG.md,
 * "Per-request work"). The map keeps its windows in the order they started, so those that
 * ended are dropped from its front as windows start, and beyond `MAX_COUNTED_KEYS` the oldest
 * window goes. Throws the 429 itself; returns nothing to wait for.
 */
export function countedInMemory(
  max: number,
  windowMs: number,
  keyOf: (request: FastifyRequest) => string,
): RateLimitHook {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return (request, reply) => {
    const now = Date.now();
    const key = keyOf(request);
    let window = windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      windows.delete(key);
      for (const [oldest, { endsAt }] of windows) {
        if (endsAt > now && windows.size < MAX_COUNTED_KEYS) break;
        windows.delete(oldest);
      }
      window = { count: 0, endsAt: now + windowMs };
      windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.ceil((window.endsAt - now) / 1000);
    reply.header('ratelimit-limit', max);
    reply.header('ratelimit-remaining', Math.max(0, max - window.count));
    reply.header('ratelimit-reset', resetSeconds);
    if (window.count > max) {
      reply.header('retry-after', resetSeconds);
      throw rateLimited(waitOf(resetSeconds));
    }
    return undefined;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hooks for the game's authenticated routes: `perPlayer` counts requests per player after
     * authentication (a new key does not reset it), `keyRotations` a player's key rotations
     * instead; `failedAuthentication` counts failed authentications per client address (so
     * unknown keys share one counter).
     */
    gameLimits: {
      perPlayer: RateLimitHook;
      keyRotations: RateLimitHook;
      failedAuthentication: RateLimitHook;
    };
  }
}

/** The plugin's hooks return a promise; the in-memory counters answer at once (undefined). */
type RateLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | undefined;

/**
 * Connects before the service starts serving, so the first requests are already counted in
 * the shared store; an unreachable Redis stops the start with a clear message. Later outages
 * let requests through (skipOnError) rather than failing them.
 */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 5000,
  });
  // Lost later, Redis is reconnected by ioredis; meanwhile one line per outage, not a stack
  // trace per failed attempt, and requests go through uncounted (skipOnError).
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    if (lastError === undefined && redis.status !== 'connecting') {
      app.log.warn(
        `Rate-limit store (REDIS_URL) unavailable: ${error.message}; requests are not being counted until it is back.`,
      );
    }
    lastError = error;
  });
  redis.on('ready', () => {
    if (lastError !== undefined) app.log.info('Rate-limit store (REDIS_URL) is back.');
    lastError = undefined;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `Redis at REDIS_URL is not reachable: ${(lastError ?? (error as Error)).message}`,
      { cause: error },
    );
  }
  return redis;
}

/**
 * A public game route's limit, counted per client address (an unverified key must not get its
 * own count), as the route's `onRequest` hook. Made once for each route, so the route's GET and
 * the HEAD Fastify adds for it share one count: a limit set in the route's config would give
 * the HEAD a count of its own, twice the budget.
 */
export const perAddress = (app: FastifyInstance, config: Config) =>
  app.rateLimit({
    max: config.limits.gameRequestsPerMinute,
    timeWindow: 60_000,
    // The route in the key: counters in Redis are one store for every route.
    keyGenerator: (request: FastifyRequest) =>
      `ip:${request.routeOptions.url ?? ''}:${clientOf(request.ip)}`,
  });

/** Registration: counted per client address. */
export const perAddressHourly = (config: Config): RateLimitOptions => ({
  max: config.limits.registrationsPerHour,
  timeWindow: 3_600_000,
  keyGenerator: (request: FastifyRequest) => `register:${clientOf(request.ip)}`,
});
