import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import { bearerCredential, sha256Hex } from './secrets.js';

/**
 * Registers the rate limiter without applying it anywhere; routes opt in through
 * `config: { rateLimit: … }`. Counters live in Redis when REDIS_URL is set (shared by every
 * process), otherwise in each process's memory.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  const redis =
    config.redisUrl === null
      ? undefined
      : new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  if (redis !== undefined)
    app.addHook('onClose', async () => {
      await redis.quit();
    });
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    // A limiter that cannot reach its store lets requests through rather than failing them.
    skipOnError: true,
    ...(redis === undefined ? {} : { redis, nameSpace: 'bazaar-rate-limit-' }),
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests; retry in ${context.after}.`),
  });
}

/** Game endpoints: counted per API key (per client address for requests without one). */
export const perApiKey = (config: Config): RateLimitOptions => ({
  max: config.limits.gameRequestsPerMinute,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => {
    const key = bearerCredential(request.headers.authorization);
    return key === null ? `ip:${request.ip}` : `key:${sha256Hex(key)}`;
  },
});

/** Registration: counted per client address. */
export const perAddressHourly = (config: Config): RateLimitOptions => ({
  max: config.limits.registrationsPerHour,
  timeWindow: 3_600_000,
  keyGenerator: (request: FastifyRequest) => `register:${request.ip}`,
});
