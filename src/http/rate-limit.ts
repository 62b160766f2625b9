import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

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
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests; retry in ${context.after}.`),
  });
  // Created once, so every authenticated route shares one counter per player and one per address.
  const perMinute = { max: config.limits.gameRequestsPerMinute, timeWindow: 60_000 };
  app.decorate('gameLimits', {
    perPlayer: app.rateLimit({
      ...perMinute,
      keyGenerator: (request) => `player:${request.playerId}`,
    }),
    failedAuthentication: app.rateLimit({
      ...perMinute,
      keyGenerator: (request) => `auth-failed:${request.ip}`,
    }),
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hooks for the game's authenticated routes: `perPlayer` counts requests per player after
     * authentication (a new key does not reset it); `failedAuthentication` counts failed
     * authentications per client address (so unknown keys share one counter).
     */
    gameLimits: { perPlayer: RateLimitHook; failedAuthentication: RateLimitHook };
  }
}

type RateLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

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

/** Public game endpoints: counted per client address (an unverified key must not get its own count). */
export const perAddress = (config: Config): RateLimitOptions => ({
  max: config.limits.gameRequestsPerMinute,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => `ip:${request.ip}`,
});

/** Registration: counted per client address. */
export const perAddressHourly = (config: Config): RateLimitOptions => ({
  max: config.limits.registrationsPerHour,
  timeWindow: 3_600_000,
  keyGenerator: (request: FastifyRequest) => `register:${request.ip}`,
});
