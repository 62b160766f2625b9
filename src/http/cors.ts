import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** How long browsers may reuse a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** Response headers a page on another origin may read. */
export const EXPOSED_HEADERS = [
  'etag',
  'link',
  'location',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-request-id',
].join(', ');

/**
 * Browser clients on other origins may call the API: credentials are bearer tokens sent
 * explicitly, never cookies, so any origin is safe unless `origins` (CORS_ORIGINS) narrows it.
 *
 * Preflights are answered by @fastify/cors, registered in a context of its own so that its hook
 * runs only on the `OPTIONS` route it adds. Every other answer gets the headers that plugin
 * would give it (the allowed origin, `Vary: Origin` when origins are listed, the exposed
 * headers), worked out here once instead of by its generic hook on each request
 * (bench/LOG.md, "The keyed product read: its log line, CORS headers and PostgreSQL
 * connections").
 */
export async function registerCors(
  app: FastifyInstance,
  origins: readonly string[] | null,
): Promise<void> {
  await app.register(async (preflights) => {
    // An OPTIONS request that is no preflight is refused, as @fastify/cors would, but in the
    // envelope (its own answer is a text/plain sentence). Runs before the plugin's hook.
    preflights.addHook('onRequest', (request, _reply, done) => {
      const preflight =
        request.headers.origin !== undefined &&
        request.headers['access-control-request-method'] !== undefined;
      done(
        preflight
          ? undefined
          : new AppError(
              'validation_error',
              'OPTIONS is answered only as a CORS preflight: send Origin and Access-Control-Request-Method.',
            ),
      );
    });
    await preflights.register(cors, {
      origin: origins === null ? '*' : [...origins],
      methods: ['GET', 'HEAD', 'POST', 'DELETE'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'if-none-match',
        'x-request-id',
        'mcp-protocol-version',
      ],
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      maxAge: CORS_MAX_AGE_SECONDS,
    });
  });

  const setHeaders = corsHeaders(origins);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS') setHeaders(request, reply);
    done();
  });
}

/**
 * What every answer but a preflight carries for pages on other origins: the allowed origin
 * (any, or the request's own when `origins` names it, varying by it), and the exposed headers.
 * Also set on the answers the router makes before any hook runs.
 */
export function corsHeaders(
  origins: readonly string[] | null,
): (request: FastifyRequest, reply: FastifyReply) => void {
  if (origins === null) {
    return (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    };
  }
  const allowed = new Set(origins);
  return (request, reply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined && allowed.has(origin)) {
      reply.header('access-control-allow-origin', origin);
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  };
}
