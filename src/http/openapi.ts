import type { FastifySchema } from 'fastify';

const integerHeader = (description: string) => ({ type: 'integer', minimum: 0, description });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed in the current window.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window starts again.'),
};
const RETRY_AFTER = {
  'Retry-After': integerHeader('Seconds to wait before sending the request again.'),
};

const NEXT_PAGE = {
  Link: {
    type: 'string',
    description: 'While more follow: `<the next page’s URL>; rel="next"` (RFC 8288).',
  },
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
 * Adds to the OpenAPI document the headers the service sends but route schemas cannot declare:
 * `RateLimit-*` on every answer of a rate-limited operation (one that can answer
 * `rate_limited`), `Retry-After` on each answer that asks the client to wait, and `Link` on
 * the pages of a list whose next page it names.
 */
export function documentHeaders({ schema, url }: { schema: FastifySchema; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  const responses = schema.response as Record<string, ResponseSchema> | undefined;
  if (responses === undefined) return { schema, url };
  const limited = Object.values(responses).some((response) =>
    codesOfResponse(response.description).includes('rate_limited'),
  );
  const paged = pagedByLink(schema, responses['200']);
  const withHeaders = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const codes = codesOfResponse(response.description);
      const waits =
        status === '503' || codes.includes('rate_limited') || codes.includes('daily_limit_reached');
      const headers = {
        ...(limited && (status.startsWith('2') || status === '429') ? RATE_LIMIT_HEADERS : {}),
        ...(waits ? RETRY_AFTER : {}),
        ...(paged && status === '200' ? NEXT_PAGE : {}),
      };
      return [status, Object.keys(headers).length === 0 ? response : { ...response, headers }];
    }),
  );
  return { schema: { ...schema, response: withHeaders }, url };
}
