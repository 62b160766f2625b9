/**
 * The one list of error codes the API answers with, and the HTTP status of each. Services throw
 * `AppError(code, message)`; the error handler turns it into the envelope.
 */
export const statusOfCode = {
  validation_error: 400,
  invalid_amount: 400,
  invalid_json: 400,
  malformed_request: 400,
  contains_secret: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  session_not_active: 409,
  out_of_stock: 409,
  no_counter_offer: 409,
  identity_conflict: 409,
  cooling_down: 409,
  too_many_active: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  daily_limit_reached: 429,
  headers_too_large: 431,
  internal_error: 500,
  storage_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof statusOfCode;
export const errorCodes = Object.keys(statusOfCode) as ErrorCode[];

export interface FieldProblem {
  field: string;
  message: string;
}

/** The `error` sentence of every validation failure: the first problem, then how many more. */
export function validationHeadline(details: readonly FieldProblem[]): string {
  const [first, ...rest] = details;
  if (first === undefined) return 'The request is invalid.';
  const more =
    rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
  return `The request is invalid: ${first.field} ${first.message}${more}.`;
}

export interface AppErrorOptions {
  details?: FieldProblem[];
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly details: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.status = statusOfCode[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found.`);

/** Seconds a client is told to wait before retrying after a storage failure. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** A request that arrives while this process shuts down: another process, or this one restarted, answers it. */
export const shuttingDown = (): AppError =>
  new AppError(
    'storage_unavailable',
    'This server process is shutting down: try again (another process, or this one restarted, answers).',
    { headers: { 'retry-after': '1' } },
  );

export const storageUnavailable = (cause: unknown): AppError =>
  new AppError(
    'storage_unavailable',
    'The request was not saved because storage is unavailable; please retry.',
    {
      headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
      cause,
    },
  );
