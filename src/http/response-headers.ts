import { hash } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Public reads that do not depend on who asks: answered with an ETag and revalidated. */
export const PUBLIC_READS = new Set([
  '/api/catalog',
  '/api/catalog/categories',
  '/api/catalog/feed.atom',
  '/api/catalog/:id',
  '/api/products',
  '/api/products/:id',
  '/images/products/:id.svg',
]);

/** JSON smaller than this is sent as is: compressing it costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Headers every response carries: security headers, the request's id, caching rules and
 * compression.
 *
 * - Security headers by what the answer is. A document a browser renders, which may load or run
 *   anything (HTML, and XML such as SVG or Atom), a script, and an answer without a type carry
 *   Helmet's whole set. Every other answer (JSON, plain text, styles) carries the headers
 *   OWASP's REST Security Cheat Sheet names for API responses, stricter than a page's: a policy
 *   that allows nothing (`default-src 'none'; frame-ancestors 'none'`), `X-Frame-Options: DENY`,
 *   HSTS and `nosniff`, with `Referrer-Policy` and `Cross-Origin-Resource-Policy`. What it leaves
 *   out acts only on a rendered page (opener policy, agent clusters, DNS prefetching, IE8
 *   downloads, Flash policy files, the retired XSS filter), and every header line costs the
 *   server and each client that reads it (bench/LOG.md, "Security headers by what the answer
 *   is").
 * - Nothing is stored by caches (`no-store`) unless it is a public read: keys, receipt tokens and
 *   private game data must not land in a shared or browser cache.
 * - Public reads carry an ETag of their body and answer `If-None-Match` with 304; they are
 *   `no-cache` unless their route says how long they keep (product images: a day). The tag is
 *   strong for the body as it is and weak (`W/`) when the body goes compressed: a strong tag
 *   names one sequence of bytes (RFC 9110 8.8.1), and gzip's bytes are not the body's.
 */
export async function registerResponseHeaders(app: FastifyInstance): Promise<void> {
  // Added before any route's own onSend hook: Swagger UI's sets its own policy on everything
  // under /docs after this.
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(reply);
    reply.header('x-request-id', request.id);
    const publicRead =
      (request.method === 'GET' || request.method === 'HEAD') &&
      PUBLIC_READS.has(request.routeOptions.url ?? '');
    if (!publicRead || reply.statusCode !== 200) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
      return;
    }
    // A route may let its answer be reused for a while (product images); otherwise revalidate.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      done(null, payload);
      return;
    }
    // One-shot hash: no Hash object per response.
    const etag = `"${hash('sha256', payload, 'base64url').slice(0, 27)}"`;
    reply.header('etag', etag);
    const matched = noneMatch(request.headers['if-none-match'], etag);
    if (matched !== undefined) {
      // The tag the client holds: weak if the answer it has was compressed.
      reply.header('etag', matched);
      reply.code(304);
      reply.removeHeader('content-length');
      done(null, '');
      return;
    }
    done(null, payload);
  });

  // A GET or HEAD has no body to decompress: its route goes without the decompression hook.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === 'GET' || method === 'HEAD')) {
      route.decompress ??= false;
    }
  });
  await app.register(compress, { global: true, threshold: COMPRESSION_THRESHOLD_BYTES });
  // Compression adds its hook to each route; this one, added after it, sees its Content-Encoding.
  app.addHook('onRoute', (route) => {
    if (!PUBLIC_READS.has(route.url)) return;
    route.onSend = [route.onSend ?? []].flat().concat(weakenWhenCompressed);
  });
}

/**
 * Marks a compressed answer's ETag weak, and says on every answer of a public read, compressed
 * or not, that it depends on `Accept-Encoding`: a cache that kept the plain answer must not give
 * it, or its strong tag, to a client whose request would have been compressed (and the other
 * way round). Compression itself says so only on the answers it compresses.
 */
function weakenWhenCompressed(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"') && reply.hasHeader('content-encoding')) {
    reply.header('etag', `W/${etag}`);
  }
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary)))
    reply.header('vary', `${String(vary)}, accept-encoding`);
  done(null, payload);
}

// Worked out once, as lists: Fastify's reply.headers() lists an object's keys on every call.
let headerSets: { document: [string, string][]; api: [string, string][] } | undefined;
const HEADER_SETS = () =>
  (headerSets ??= {
    document: Object.entries(
      securityHeaders({
        // The service is often run over plain HTTP on a LAN address: a browser told to upgrade
        // every request to HTTPS would render /docs as a blank page there.
        contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
        // Product images and listings may be embedded by other sites.
        crossOriginResourcePolicy: { policy: 'cross-origin' },
      }),
    ),
    api: Object.entries(
      securityHeaders({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
        },
        crossOriginResourcePolicy: { policy: 'cross-origin' },
        xFrameOptions: { action: 'deny' },
        crossOriginOpenerPolicy: false,
        originAgentCluster: false,
        xDnsPrefetchControl: false,
        xDownloadOptions: false,
        xPermittedCrossDomainPolicies: false,
        xXssProtection: false,
      }),
    ),
  });

/**
 * Media types a browser renders as a document that may load or run anything (HTML and XML), and
 * scripts, which a worker would run under their own response's policy.
 */
const DOCUMENT_TYPE = /^\s*(?:text\/html|[a-z]+\/(?:[\w.-]+\+)?xml|[a-z]+\/(?:x-)?javascript)\b/i;

/**
 * The security headers for what the answer is, by its `Content-Type` (set by now). An answer
 * without one gets the whole set: a file's 304 goes without it, and a cache takes the 304's
 * headers for those of the page or script it keeps (RFC 9111 4.3.4).
 */
function setSecurityHeaders(reply: FastifyReply): void {
  const type = reply.getHeader('content-type');
  const sets = HEADER_SETS();
  const set = typeof type === 'string' && !DOCUMENT_TYPE.test(type) ? sets.api : sets.document;
  for (const [name, value] of set) reply.header(name, value);
}

/** The API's security headers, for an answer written to the socket without Fastify. */
export const apiSecurityHeaders = (): readonly [string, string][] => HEADER_SETS().api;

/**
 * For an answer that Fastify's router makes without the hooks (a URL it cannot decode, a path
 * segment too long to route): the headers the hooks give every other answer. It is the API's
 * JSON error or the web app's page, a document, which sets its own caching.
 */
export function setHeadersWithoutHooks(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: 'document' | 'api',
): void {
  for (const [name, value] of HEADER_SETS()[kind]) reply.header(name, value);
  reply.header('x-request-id', request.id);
  if (kind === 'api') reply.header('cache-control', 'no-store');
}

/**
 * The tag in `If-None-Match` that names this ETag, by the weak comparison RFC 9110 (13.1.2)
 * asks for (`W/"x"` matches `"x"`; `*` matches any), or undefined when none does.
 */
function noneMatch(wanted: string | undefined, etag: string): string | undefined {
  if (wanted === undefined) return undefined;
  if (wanted.trim() === '*') return etag;
  return wanted
    .split(',')
    .map((tag) => tag.trim())
    .find((tag) => tag.replace(/^W\//, '') === etag);
}

/**
 * Helmet's headers for these options, worked out once: they are the same for every response,
 * and Helmet's own middleware would build and format them again on each request.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, (error?: unknown) => {
    if (error !== undefined && error !== null)
      throw new Error('Security headers', { cause: error });
  });
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
}
