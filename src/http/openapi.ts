import type { FastifySchema, RouteOptions } from 'fastify';
import { PUBLIC_READS } from './response-headers.js';

const integerHeader = (description: string) => ({ type: 'integer', minimum: 0, description });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed in the current window.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window starts again.'),
};
const RETRY_AFTER = {
  'Retry-After': integerHeader('Seconds to wait before sending the request again.'),
};
/** The codes answered with `Retry-After` (besides every 503). */
const WAIT_CODES = ['rate_limited', 'daily_limit_reached', 'cooling_down', 'too_many_active'];

const NEXT_PAGE = {
  Link: {
    type: 'string',
    description: 'While more follow: `<the next page’s URL>; rel="next"` (RFC 8288).',
  },
};

const ETAG = {
  ETag: {
    type: 'string',
    description:
      'Names this answer: send it back in `If-None-Match` to get 304 while the answer is the same (weak, `W/"…"`, when the body was compressed).',
  },
};
const NOT_MODIFIED: ResponseSchema = {
  description: 'Not modified: the `ETag` sent in `If-None-Match` still names the answer. No body.',
  headers: ETAG,
};

const CREATED = {
  Location: { type: 'string', format: 'uri', description: 'The absolute URL of what was created.' },
};

/** A list answered as a plain array that takes a `cursor`: its next page is a `Link` header. */
function pagedByLink(schema: FastifySchema, success: ResponseSchema | undefined): boolean {
  const query = schema.querystring as { properties?: Record<string, unknown> } | undefined;
  const data = (success?.properties as { data?: { type?: unknown } } | undefined)?.data;
  return query?.properties?.cursor !== undefined && data?.type === 'array';
}

/** The error codes an error response names in its description (`Error: a, b`). */
export const codesOfResponse = (description: unknown): string[] =>
  typeof description === 'string' && description.startsWith('Error: ')
    ? description.slice('Error: '.length).split(', ')
    : [];

type ResponseSchema = Record<string, unknown> & { description?: unknown };

/**
 * What the body parser answers before an operation that takes a body runs: a body over 64 KiB,
 * or one that is not JSON. Declared on each such operation, so that clients generated from the
 * document know these statuses.
 */
const BODY_PARSER_ERRORS: Record<string, ResponseSchema> = {
  '413': { $ref: 'Error#', description: 'Error: payload_too_large' },
  '415': { $ref: 'Error#', description: 'Error: unsupported_media_type' },
};

/**
 * Adds to the OpenAPI document the headers the service sends but route schemas cannot declare:
 * `RateLimit-*` on every answer of a rate-limited operation (one that can answer
 * `rate_limited`), `Retry-After` on each answer that asks the client to wait, `Link` on the
 * pages of a list whose next page it names, `Location` on every 201, and `ETag` and the 304 of
 * the public reads; and, on operations a body may be sent to (any but GET and HEAD, whether they
 * take one or not), the body parser's 413 and 415.
 */
export function documentHeaders({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route?: Pick<RouteOptions, 'method' | 'url'>;
}): {
  schema: FastifySchema;
  url: string;
} {
  const declared = schema.response as Record<string, ResponseSchema> | undefined;
  if (declared === undefined) return { schema, url };
  const methods = [route?.method ?? []].flat();
  const bodied =
    schema.body !== undefined || methods.some((method) => method !== 'GET' && method !== 'HEAD');
  const publicRead = PUBLIC_READS.has(route?.url ?? '') && methods.includes('GET');
  const responses: Record<string, ResponseSchema> = {
    ...declared,
    ...(bodied ? BODY_PARSER_ERRORS : {}),
    ...(publicRead ? { '304': NOT_MODIFIED } : {}),
  };
  const limited = Object.values(responses).some((response) =>
    codesOfResponse(response.description).includes('rate_limited'),
  );
  const paged = pagedByLink(schema, responses['200']);
  const withHeaders = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const codes = codesOfResponse(response.description);
      const waiting = codes.filter((code) => WAIT_CODES.includes(code));
      // A status shared with codes that do not wait (409) says which ones carry the header.
      const retryAfter =
        status === '503' || (waiting.length > 0 && waiting.length === codes.length)
          ? RETRY_AFTER
          : waiting.length > 0
            ? {
                'Retry-After': integerHeader(
                  `With ${waiting.map((code) => `\`${code}\``).join(' or ')}: seconds to wait before sending the request again.`,
                ),
              }
            : {};
      const headers = {
        ...(limited && (status.startsWith('2') || status === '429') ? RATE_LIMIT_HEADERS : {}),
        ...retryAfter,
        ...(paged && status === '200' ? NEXT_PAGE : {}),
        ...(status === '201' ? CREATED : {}),
        ...(publicRead && status === '200' ? ETAG : {}),
      };
      return [status, Object.keys(headers).length === 0 ? response : { ...response, headers }];
    }),
  );
  return { schema: { ...schema, response: withHeaders }, url };
}
