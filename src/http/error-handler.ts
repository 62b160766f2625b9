import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isStorageUnavailable } from '../db/errors.js';
import { AppError, storageUnavailable, type ErrorCode } from './errors.js';
import { fieldProblems, validationHeadline } from './validation.js';

/** The one place where anything thrown becomes the contract's error envelope. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    send(
      reply,
      new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`),
    ),
  );

  app.setErrorHandler((error: Error, request, reply) => {
    const known = toAppError(error);
    if (known.status >= 500) {
      request.log.error({ err: error, code: known.code }, 'request failed');
    }
    return send(reply, known);
  });
}

function send(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer');
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
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

const frameworkCodes: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The body is empty but declared as JSON.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The body is larger than 64 KiB.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'unsupported_media_type',
    'The body must be JSON (Content-Type: application/json).',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'validation_error',
    'Content-Length does not match the body.',
  ],
};

function toAppError(thrown: Error): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = thrown as Error & Partial<FastifyError>;
  if (error.validation !== undefined) {
    const details = fieldProblems(error.validation, error.validationContext);
    return new AppError('validation_error', validationHeadline(details), { details });
  }
  const framework = error.code === undefined ? undefined : frameworkCodes[error.code];
  if (framework !== undefined) return new AppError(framework[0], framework[1]);
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('invalid_json', 'The body is not valid JSON.');
  }
  if (isStorageUnavailable(error)) return storageUnavailable(error);
  const status = error.statusCode ?? 500;
  if (status === 404) return new AppError('not_found', 'Not found.');
  if (status === 405) return new AppError('method_not_allowed', 'Method not allowed.');
  if (status >= 400 && status < 500)
    return new AppError('validation_error', 'The request is invalid.');
  return new AppError(
    'internal_error',
    'Something went wrong on our side; the error has been logged.',
  );
}
