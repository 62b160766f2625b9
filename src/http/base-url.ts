import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * The base for absolute URLs in responses: PUBLIC_BASE_URL when set, otherwise the scheme and
 * host the client used (honouring X-Forwarded-* only when TRUST_PROXY is on).
 */
export function publicBaseUrl(
  request: FastifyRequest,
  config: Pick<Config, 'publicBaseUrl'>,
): string {
  return config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
