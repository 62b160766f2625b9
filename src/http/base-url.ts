import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * The base for absolute URLs in responses: PUBLIC_BASE_URL when set, otherwise the scheme and
 * host the client used (honouring X-Forwarded-* only when TRUST_PROXY is on). An HTTP/1.0
 * request may name no host: then the address and port it reached.
 */
export function publicBaseUrl(
  request: FastifyRequest,
  config: Pick<Config, 'publicBaseUrl'>,
): string {
  return config.publicBaseUrl ?? `${request.protocol}://${request.host || reached(request.socket)}`;
}

/** The local address and port of a connection, as the host part of a URL. */
function reached(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${String(socket.localPort)}`;
}
