import createClient from 'openapi-fetch';
import type { components, paths } from '../api-schema';

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

type ErrorBody = components['schemas']['Error'];

/** A failure the API answered with its error envelope (or the network failing). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly details: { field: string; message: string }[] = [],
    /** Seconds until a retry may succeed (`Retry-After`), when the API says. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** Awaits an API call and returns its `data`, or throws the API's error as an `ApiError`. */
export async function call<T>(
  request: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  let result;
  try {
    result = await request;
  } catch {
    throw new ApiError('The service cannot be reached.', 'network', 0);
  }
  if (result.data !== undefined) return result.data.data;
  const body = result.error as Partial<ErrorBody> | undefined;
  const retryAfter = Number(result.response.headers.get('retry-after') ?? Number.NaN);
  throw new ApiError(
    body?.error ?? `The service answered with status ${result.response.status}.`,
    body?.code ?? 'unknown',
    result.response.status,
    body?.details ?? [],
    Number.isFinite(retryAfter) ? retryAfter : null,
  );
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret.trim()}` });
