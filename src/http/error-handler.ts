import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import { isStorageUnavailable } from '../db/errors.js';
import { AppError, storageUnavailable, validationHeadline } from './errors.js';
import { withoutTrailingSlashes } from './paths.js';
import { EXPOSED_HEADERS } from './cors.js';
import { apiSecurityHeaders, setHeadersWithoutHooks } from './response-headers.js';
import { fieldProblems } from './validation.js';

/**
 * Answers a path no route serves in another way than the JSON 404 (the web app's own
 * not-found page for browsers), or leaves it to the envelope by returning undefined. It calls
 * `beforeSending` just before it sends the page.
 */
export type NotFoundPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  beforeSending?: () => void,
) => FastifyReply | undefined;

/** The one place where anything thrown becomes the contract's error envelope. */
export function installErrorHandling(app: FastifyInstance, notFoundPage?: NotFoundPage): void {
  // HTTP/1.1 requires a Host header (RFC 9112 3.2). The router refuses a path it cannot decode
  // (FST_ERR_BAD_URL); the query string's parser would keep `%E0%A4%A` or `%ff` as text and
  // search for it: an API query is refused alike.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      done(new AppError('malformed_request', 'An HTTP/1.1 request must carry a Host header.'));
      return;
    }
    // Only the API reads queries; the web app's pages read their own in the browser.
    const start = request.url.startsWith('/api/') ? request.url.indexOf('?') : -1;
    done(start !== -1 && !decodable(request.url.slice(start + 1)) ? badUrl() : undefined);
  });
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  // By path: the methods of the routes that name it whole (no parameter), which the router
  // prefers to any route with a parameter.
  const named = new Map<string, string[]>();
  app.addHook('onRoute', (route: RouteOptions) => {
    // OPTIONS is answered for every path by the CORS preflight; it says nothing about a path.
    const methods = [route.method].flat().filter((method) => method !== 'OPTIONS');
    if (methods.length === 0) return;
    const pattern = patternOf(route.url);
    const known = routes.find((entry) => entry.pattern.source === pattern.source);
    if (known === undefined) routes.push({ pattern, methods });
    else known.methods.push(...methods);
    if (!/[:*]/.test(route.url)) {
      const path = pathOf(route.url);
      named.set(path, [...(named.get(path) ?? []), ...methods]);
    } else {
      // GET /api/haggle/start would reach GET /api/haggle/:sessionId and be refused as no id:
      // a path another route names is that route's, and this method is not allowed on it.
      const own = (
        request: FastifyRequest,
        _reply: FastifyReply,
        done: (error?: Error) => void,
      ) => {
        const method = request.raw.method ?? request.method;
        const allowed = named.get(decodedPathOf(request.url));
        done(
          allowed === undefined || allowed.includes(method)
            ? undefined
            : methodNotAllowed(method, allowed),
        );
      };
      route.onRequest = [own, ...[route.onRequest ?? []].flat()];
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = named.get(path) ?? [
      ...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((r) => r.methods)),
    ];
    // A route that takes this method but found nothing (a missing static file) is a plain 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return send(reply, methodNotAllowed(request.method, allowed));
    }
    const page = notFoundPage?.(request, reply);
    if (page !== undefined) return page;
    return send(reply, new AppError('not_found', `No route ${request.method} ${shorten(path)}.`));
  });

  app.setErrorHandler((error: Error, request, reply) => {
    if (request.raw.readableAborted && isBodyCutShort(error)) {
      // The client hung up while its body arrived: nothing of ours failed (its ECONNRESET is
      // not the database's). No access line follows (a closed socket never finishes the
      // response), so this is its line. A failure of the handler after the client left is
      // logged as any other.
      const route = request.routeOptions.url ?? null;
      request.log.info(
        { method: request.method, route, code: 'malformed_request' },
        'the client closed the connection before its request body arrived',
      );
      return send(reply, bodyCutShort());
    }
    const known = toAppError(error);
    if (known.status >= 500) {
      request.log.error({ err: error, code: known.code }, 'request failed');
    }
    return send(reply, known);
  });
}

/** The error Node gives the body's stream when the connection closes before it has arrived. */
const isBodyCutShort = (error: Error) =>
  error.message === 'aborted' && (error as { code?: unknown }).code === 'ECONNRESET';

const bodyCutShort = () =>
  new AppError('malformed_request', 'The connection closed before the request body arrived whole.');

/** A request's path without its query and trailing slashes, as routes are matched. */
const pathOf = (url: string): string => withoutTrailingSlashes(url.split('?')[0] ?? '');

/** `pathOf`, percent-decoded as the router reads it (`/api/haggle/%73tart` is `start`). */
function decodedPathOf(url: string): string {
  const path = pathOf(url);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new AppError(
    'method_not_allowed',
    `${method} is not allowed here; use ${allowed.join(' or ')}.`,
    {
      headers: { allow: allowed.join(', ') },
    },
  );

/** A route's URL (`/api/players/:id`) as a pattern matching the paths it serves. */
function patternOf(url: string): RegExp {
  const source = withoutTrailingSlashes(url)
    .split('/')
    .map((part) =>
      part.startsWith(':')
        ? '[^/]+'
        : part === '*'
          ? '.*'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

const shorten = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}…` : text);

/**
 * Errors Fastify's router meets before any route runs: a URL whose percent-encoding cannot be
 * decoded, or a path parameter too long to route.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  notFoundPage?: NotFoundPage,
): void {
  // A browser sent to a malformed address of the app's pages, or one too long to route (a
  // mangled link), gets the app, which says so in words, not the API's JSON.
  const forBrowsers = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const page = forBrowsers
    ? notFoundPage?.(request, reply, () => {
        setHeadersWithoutHooks(request, reply, 'document');
      })
    : undefined;
  if (page !== undefined) return;
  setHeadersWithoutHooks(request, reply, 'api');
  void send(reply, toAppError(error));
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers over 16 KiB, bytes
 * after a body that do not form a request, a request that took too long): the answer is written
 * straight to the socket, still as the envelope, and the connection is closed.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
  cors: { anyOrigin: boolean },
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('headers_too_large', 'The request headers are larger than 16 KiB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout', 'The request took too long to arrive.')
        : new AppError(
            'malformed_request',
            'The request is not valid HTTP (for example, a body longer than its Content-Length).',
          );
  const body = JSON.stringify({ success: false, error: known.message, code: known.code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${statusText[known.status] ?? 'Error'}\r\n` +
        'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
        'Cache-Control: no-store\r\n' +
        apiSecurityHeaders()
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        // Any page may read it where any origin may call (the request's Origin is not known).
        (cors.anyOrigin
          ? `Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ${EXPOSED_HEADERS}\r\n`
          : '') +
        // No request was parsed, so none was logged: the id is only for the client to quote.
        `X-Request-Id: ${randomUUID()}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * A route's config for an endpoint that speaks JSON-RPC (MCP): what fails before its handler
 * answers (a body that is not JSON, too large, a method it does not take) is a JSON-RPC error
 * object with the same status, headers and code, not the envelope.
 */
export const JSON_RPC_ERRORS = { errors: 'json-rpc' } as const;

/** Whether the request's route speaks JSON-RPC (its config is `JSON_RPC_ERRORS`). */
export const speaksJsonRpc = (request: FastifyRequest): boolean =>
  (request.routeOptions.config as { errors?: string }).errors === JSON_RPC_ERRORS.errors;

function send(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer');
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (speaksJsonRpc(reply.request)) {
    return reply.code(error.status).send({
      jsonrpc: '2.0',
      id: null,
      error: {
        // -32700 is JSON-RPC's parse error; -32000 the implementation-defined server error.
        code: error.code === 'invalid_json' ? -32700 : -32000,
        message: error.message,
        data: {
          code: error.code,
          ...(error.details === undefined ? {} : { details: error.details }),
        },
      },
    });
  }
  return reply.code(error.status).send({
    success: false,
    // Every validation failure reads the same way, whichever layer found it.
    error:
      error.code === 'validation_error' && error.details !== undefined
        ? validationHeadline(error.details)
        : error.message,
    code: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}

const frameworkCodes: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_json', 'The body is not valid JSON.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new AppError('payload_too_large', 'The body is larger than 64 KiB.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError(
      'unsupported_media_type',
      'The body must be JSON (Content-Type: application/json).',
    ),
  FST_CP_ERR_INVALID_CONTENT_ENCODING: () =>
    new AppError(
      'unsupported_media_type',
      'The body’s Content-Encoding is not supported: send it as is, or as gzip, deflate or br.',
    ),
  FST_CP_ERR_INVALID_CONTENT: () =>
    new AppError('malformed_request', 'The body could not be decoded with its Content-Encoding.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('malformed_request', 'Content-Length does not match the body.'),
  FST_ERR_BAD_URL: () => badUrl(),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new AppError('uri_too_long', 'A part of the URL path is too long for any route.'),
};

const badUrl = () =>
  new AppError('validation_error', 'The URL is invalid.', {
    details: [{ field: 'url', message: 'has percent-encoding that cannot be decoded' }],
  });

/** Whether a query string's %-escapes are all whole and spell UTF-8. */
function decodable(query: string): boolean {
  if (!query.includes('%')) return true;
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}

function toAppError(thrown: Error): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = thrown as Error & Partial<FastifyError>;
  if (error.validation !== undefined) {
    const details = fieldProblems(error.validation, error.validationContext);
    return new AppError('validation_error', validationHeadline(details), { details });
  }
  const framework = error.code === undefined ? undefined : frameworkCodes[error.code];
  if (framework !== undefined) return framework();
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('invalid_json', 'The body is not valid JSON.');
  }
  if (isStorageUnavailable(error)) return storageUnavailable(error);
  const status = error.statusCode ?? 500;
  if (status === 404) return new AppError('not_found', 'Not found.');
  if (status === 405) return new AppError('method_not_allowed', 'Method not allowed.');
  if (status >= 400 && status < 500)
    return new AppError('malformed_request', 'The request could not be understood.');
  return new AppError(
    'internal_error',
    'Something went wrong on our side; the error has been logged.',
  );
}
