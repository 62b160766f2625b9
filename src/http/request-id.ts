import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a client's own X-Request-Id may look like to be used as the request's id. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The client's X-Request-Id when it is short and plain (it ends up in logs and headers),
 * otherwise a new UUID.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}
