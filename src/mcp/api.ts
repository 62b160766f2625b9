import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cursorOfNextLink } from '../http/cursor.js';
import { shuttingDown } from '../http/errors.js';

/** One call of the HTTP API, as an MCP tool makes it. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path with its parameters filled in, e.g. `/api/catalog/langchain`. */
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  authorization: string | undefined;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  /** Seconds to wait before retrying, when the service said so. */
  retryAfter: string | undefined;
  /** The cursor of the next page, when a list answered as an array has one (`Link` header). */
  nextCursor: string | undefined;
}

/**
 * How tools reach the service. Both ways go through the HTTP routes, so a tool can never
 * disagree with the API: the same validation, rules, rate limits and error codes.
 */
export type Api = (call: ApiCall) => Promise<ApiAnswer>;

// What decides the caller's address and the base of absolute URLs (see publicBaseUrl).
const forwardedHeaders = ['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/** Inside the service: the call is injected into the app as if the MCP client had made it. */
export function injectedApi(app: FastifyInstance, outer: FastifyRequest): Api {
  const headers: Record<string, string> = {};
  for (const name of forwardedHeaders) {
    const value = outer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return async (call) => {
    const payload = encoded(call.body);
    if (payload === null) return TOO_DEEP;
    // Refused only once the service has begun to shut down: answered as the API answers a
    // request that arrives then, never with the framework's words.
    const response = await app
      .inject({
        method: call.method,
        url: call.path,
        query: call.query,
        headers: {
          ...headers,
          ...(call.authorization === undefined ? {} : { authorization: call.authorization }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        remoteAddress: outer.socket.remoteAddress ?? outer.ip,
        ...(payload === undefined ? {} : { payload }),
      })
      .catch(() => undefined);
    if (response === undefined) {
      const refused = shuttingDown();
      return {
        status: refused.status,
        body: { success: false, error: refused.message, code: refused.code },
        retryAfter: refused.headers['retry-after'],
        nextCursor: undefined,
      };
    }
    const { 'retry-after': retryAfter, link } = response.headers;
    return {
      status: response.statusCode,
      body: parseJson(response.body),
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      nextCursor: cursorOfNextLink(typeof link === 'string' ? link : undefined),
    };
  };
}

/** From another process (the stdio server): plain HTTP to the service at `baseUrl`. */
export function fetchedApi(baseUrl: string): Api {
  return async (call) => {
    const payload = encoded(call.body);
    if (payload === null) return TOO_DEEP;
    const url = new URL(`${baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query)) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.authorization !== undefined) headers.authorization = headerSafe(call.authorization);
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(url, {
        method: call.method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
      });
      return {
        status: response.status,
        body: parseJson(await response.text()),
        retryAfter: response.headers.get('retry-after') ?? undefined,
        nextCursor: cursorOfNextLink(response.headers.get('link') ?? undefined),
      };
    } catch {
      // The service stopped answering (a restart, say): a tool error to retry, not a protocol one.
      return {
        status: 503,
        body: {
          success: false,
          error: `The service at ${baseUrl} did not answer; try again in a moment.`,
          code: 'storage_unavailable',
        },
        retryAfter: '1',
        nextCursor: undefined,
      };
    }
  };
}

/**
 * The body as JSON text; null when it cannot be written (arguments nested thousands deep
 * overflow the stack), which is the caller's fault and said so, not a failure of the service.
 */
function encoded(body: Record<string, unknown> | undefined): string | undefined | null {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch {
    return null;
  }
}

const TOO_DEEP: ApiAnswer = {
  status: 400,
  body: {
    success: false,
    error:
      'The arguments are nested too deeply to be sent: send each value as the tool describes it.',
    code: 'validation_error',
  },
  retryAfter: undefined,
  nextCursor: undefined,
};

/**
 * A credential with characters no HTTP header may carry (a line break, a `€`) travels
 * percent-encoded: no key or token holds such characters, so the API answers it as the wrong
 * credential it is, as it answers the same call at /mcp, instead of the call failing here.
 */
const headerSafe = (value: string): string =>
  value.replace(/[^\t\x20-\x7e]/gu, (character) =>
    Buffer.from(character)
      .toString('hex')
      .replace(/../g, (byte) => `%${byte.toUpperCase()}`),
  );

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
