import createClient from 'openapi-fetch';
import type { components, paths } from './api-schema';

/** Typed client of the service's own API; types come from its OpenAPI document (`npm run gen:api`). */
export const api = createClient<paths>();

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The `data` of a route's 200 (or 201) answer. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: infer S }
    ? Json<S> extends { data: infer D }
      ? D
      : never
    : R extends { 201: infer S }
      ? Json<S> extends { data: infer D }
        ? D
        : never
      : never
  : never;

export type SearchResult = Ok<'/api/catalog', 'get'>;
export type Listing = Omit<SearchResult['items'][number], 'matched'>;
export type StoredRequest = Ok<'/api/requests/{id}', 'get'>;
export type Player = Ok<'/api/players/{id}', 'get'>;
export type Product = Ok<'/api/products', 'get'>[number];
export type SessionDetail = Ok<'/api/haggle/{sessionId}', 'get'>;
export type Session = SessionDetail['session'];
export type Message = SessionDetail['messages'][number];
export type OfferResult = Ok<'/api/haggle/offer', 'post'>;
export type AcceptResult = Ok<'/api/haggle/accept', 'post'>;
export type Stats = Ok<'/api/players/{id}/stats', 'get'>;
export type Transaction = Ok<'/api/transactions', 'get'>[number];
export type LeaderboardEntry = Ok<'/api/leaderboard', 'get'>[number];
type ErrorBody = components['schemas']['Error'];

/** A failure the API answered with its error envelope (or the network failing). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** Awaits an API call and returns its `data`, or throws the API's own error sentence. */
export async function call<T>(
  request: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  let result;
  try {
    result = await request;
  } catch {
    throw new ApiError(
      'The service cannot be reached. Check the connection and try again.',
      'network',
      0,
    );
  }
  if (result.data !== undefined) return result.data.data;
  const body = result.error as Partial<ErrorBody> | undefined;
  throw new ApiError(
    body?.error ?? `The service answered with status ${result.response.status}.`,
    body?.code ?? 'unknown',
    result.response.status,
    body?.details ?? [],
  );
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** Credits as the API writes them (12.5) shown as money (12.50). */
export const credits = (amount: number) =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const message = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong.';
