import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * The base for absolute URLs in responses: PUBLIC_BASE_URL when set, otherwise the scheme and
 * host the client used (honouring X-Forwarded-* only when TRUST_PROXY is on). A request that
 * names no host (HTTP/1.0) or one that is no valid host: the address and port it reached.
 */
export function publicBaseUrl(
  request: FastifyRequest,
  config: Pick<Config, 'publicBaseUrl'>,
): string {
  if (config.publicBaseUrl !== null) return config.publicBaseUrl;
  const host = request.host;
  return `${request.protocol}://${VALID_HOST.test(host) ? host : reached(request.socket)}`;
}

/**
 * A host as it may stand in a URL: a name or IPv4 address, or an IPv6 address in brackets, with
 * an optional port. Anything else (`a b`, `x@y`, empty) would make every link in the answer an
 * invalid URI, or point it elsewhere: the address the request reached is used instead.
 */
const VALID_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The local address and port of a connection, as the host part of a URL. */
function reached(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${String(socket.localPort)}`;
}
